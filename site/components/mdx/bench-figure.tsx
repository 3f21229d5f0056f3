// Benchmark figures in the docs, rendered at build time from the committed results
// (bench/results/NAME.json), so a page can never disagree with the run it quotes:
//   <BenchFigure bench="streams" figure="mp3.tributary.cpu_s" />  one figure, as the bench printed it
//   <BenchTable bench="fidelity" columns={[...]} rows={[[label, prefix], ...]} cells={[...]} />
//     a table: each cell a template whose {name} is the figure PREFIX.name of its row
//   <BenchSource bench="fidelity" />  the command, date, commit, machine and load of that run
import { Fragment, type ReactNode } from 'react';
import { benchFigure, describeRun, formatFigure, loadBenchResult } from '@/lib/bench-results';
import { siteConfig } from '@/lib/site-config';
import { Table } from './table';

export function BenchFigure({
  bench,
  figure,
  unit = false,
}: {
  bench: string;
  figure: string;
  /** Also print the figure's unit. */
  unit?: boolean;
}) {
  const f = benchFigure(bench, figure);
  return (
    <span className="bench-figure" data-bench={bench} data-figure={figure}>
      {formatFigure(f)}
      {unit ? ` ${f.unit}` : ''}
    </span>
  );
}

/** Text with `code` spans, as in markdown. */
function inlineCode(text: string): ReactNode {
  let at = 0; // each part's offset in the text: its key
  return text.split('`').map((part, i) => {
    const key = at;
    at += part.length + 1;
    return i % 2 ? <code key={key}>{part}</code> : <Fragment key={key}>{part}</Fragment>;
  });
}

/** A cell template with each {name} replaced by the figure `prefix.name`. */
export function fillTemplate(bench: string, prefix: string, template: string): string {
  return template.replace(/\{([a-z0-9_.-]+)\}/g, (_, name: string) =>
    formatFigure(benchFigure(bench, prefix ? `${prefix}.${name}` : name)),
  );
}

export function BenchTable({
  bench,
  columns,
  rows,
  cells,
}: {
  bench: string;
  /** Header of every column, the row label's first. */
  columns: string[];
  /** Each row: its label (markdown `code` allowed) and the prefix of its figures. */
  rows: [label: string, prefix: string][];
  /** One template per column after the label. */
  cells: string[];
}) {
  if (cells.length !== columns.length - 1) {
    throw new Error(`BenchTable of ${bench}: ${columns.length} columns but ${cells.length} cells`);
  }
  return (
    <Table data-bench={bench}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{inlineCode(c)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, prefix]) => (
          <tr key={label}>
            <td>{inlineCode(label)}</td>
            {cells.map((template, i) => (
              <td key={columns[i + 1]}>{fillTemplate(bench, prefix, template)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function BenchSource({ bench }: { bench: string }) {
  const run = describeRun(loadBenchResult(bench));
  const file = `bench/results/${bench}.json`;
  return (
    <p className="bench-source">
      Figures from <code>{run.command}</code> on {run.date}
      {run.commit ? (
        <>
          {' '}
          (commit <code>{run.commit}</code>)
        </>
      ) : null}
      : {run.machine}; {run.load}. The whole run:{' '}
      <a href={`${siteConfig.repository.href}/blob/main/${file}`} rel="noopener">
        <code>{file}</code>
      </a>
      .
    </p>
  );
}
