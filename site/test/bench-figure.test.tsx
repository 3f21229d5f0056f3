import { readdirSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { BenchFigure, BenchSource, BenchTable } from '@/components/mdx/bench-figure';
import { benchResultsDir, formatFigure, loadBenchResult } from '@/lib/bench-results';

// The committed results the docs quote; what is expected is read from them, not written here.
const bench = readdirSync(benchResultsDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort()[0]!;
const result = loadBenchResult(bench);
const ids = Object.keys(result.figures).filter((id) => result.figures[id]!.value !== null);
const first = ids[0]!;

describe('benchmark figures in the docs', () => {
  test('<BenchFigure> prints the committed figure as its bench printed it, with its unit if asked', () => {
    const f = result.figures[first]!;
    const { container } = render(
      <p>
        <BenchFigure bench={bench} figure={first} /> and{' '}
        <BenchFigure bench={bench} figure={first} unit />
      </p>,
    );
    expect(container.textContent).toBe(
      `${f.value!.toFixed(f.digits)} and ${f.value!.toFixed(f.digits)} ${f.unit}`,
    );
  });

  test("<BenchTable> fills each cell template from its row's figures, code spans in labels", () => {
    const [prefix, name] = [
      first.slice(0, first.lastIndexOf('.')),
      first.slice(first.lastIndexOf('.') + 1),
    ];
    render(
      <BenchTable
        bench={bench}
        columns={['Run', 'Figure', 'Again']}
        rows={[['the `first` row', prefix]]}
        cells={[`{${name}} units`, `({${name}})`]}
      />,
    );
    const table = screen.getByRole('table');
    const cells = within(table)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    const shown = formatFigure(result.figures[first]!);
    expect(cells[0]).toBe('the first row');
    expect(within(table).getByText('first').tagName).toBe('CODE');
    expect(cells.slice(1)).toEqual([`${shown} units`, `(${shown})`]);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Run',
      'Figure',
      'Again',
    ]);
  });

  test('<BenchSource> says how, when, on what machine and under what load the figures were measured', () => {
    const { container } = render(<BenchSource bench={bench} />);
    const text = container.textContent ?? '';
    expect(text).toContain(result.command);
    expect(text).toContain(result.date.slice(0, 10));
    expect(text).toContain(`${result.machine.cpu}, ${result.machine.cores} cores`);
    expect(text).toContain(
      `load average ${result.load.before.map((v) => v.toFixed(1)).join(' / ')} before`,
    );
    expect(screen.getByRole('link').getAttribute('href')).toMatch(
      new RegExp(`/blob/main/bench/results/${bench}\\.json$`),
    );
  });

  test('a figure the results lack stops the build, naming the bench and the figure', () => {
    expect(() => render(<BenchFigure bench={bench} figure="no.such.figure" />)).toThrow(
      `the docs cite figure "no.such.figure" of bench "${bench}", which its results lack`,
    );
    expect(() => render(<BenchSource bench="nosuch" />)).toThrow(
      /bench "nosuch", but .*nosuch\.json does not exist/,
    );
  });
});
