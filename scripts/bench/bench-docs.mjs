#!/usr/bin/env node
// The docs' benchmark figures against the committed results (bench/results/NAME.json):
//  - MDX pages (content/docs/*.mdx) render them at build time with <BenchFigure>, <BenchTable> and
//    <BenchSource> (site/components/mdx/bench-figure.tsx): here every figure they cite must be in
//    its bench's results (the site build would fail on it too, later and less plainly);
//  - Markdown files (READMEs) cannot render, so each figure is written out and marked, the number
//    right before the mark: `5151<!-- bench native kernel.eq.x_realtime -->`; here each must read
//    what the results hold, as the bench printed it.
// `node scripts/bench/bench-docs.mjs` checks (exit 1 naming every difference;
// scripts/bench/test/bench-docs.test.mjs runs the same check in `npm test`); `--write` rewrites the
// marked Markdown figures from the results after a new run (and realigns their tables with biome).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFigure, readResult, resultsDir, root } from './bench-results.mjs';

/** The components that cite results, and the placeholders of a <BenchTable> cell. */
const COMPONENTS = new Set(['BenchFigure', 'BenchTable', 'BenchSource']);
const PLACEHOLDER = /\{([a-z0-9_.-]+)\}/g;
/** A marked figure in Markdown: the number, then the mark. */
const MARK = /(-?[\d.]+|not measured)?<!-- bench ([a-z0-9-]+) ([a-z0-9_.-]+) -->/g;

/** Markdown files git tracks (or will: untracked ones not ignored), and the docs' MDX pages,
 * that cite results. */
export function citingFiles() {
  const docs = join(root, 'content', 'docs');
  const markdown = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean)
    .sort();
  return [
    ...markdown.map((f) => join(root, f)),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.mdx'))
      .sort()
      .map((f) => join(docs, f)),
  ].filter((file) => /<Bench|<!-- bench /.test(readFileSync(file, 'utf8')));
}

/** The value of a JSX attribute: a string, or a JavaScript expression of literals. */
function attributeValue(attr) {
  if (typeof attr.value === 'string') return attr.value;
  // Props here are literals (strings and arrays of them); evaluated, never imported.
  return new Function(`return (${attr.value.value});`)();
}

/** What an MDX page cites: { bench, figure (null for <BenchSource>), line } for each figure. */
export async function mdxCitations(text) {
  const { compile } = await import('@mdx-js/mdx');
  const found = [];
  const collect = () => (tree) => {
    const walk = (node) => {
      if (node.name && COMPONENTS.has(node.name)) {
        const props = Object.fromEntries(node.attributes.map((a) => [a.name, attributeValue(a)]));
        const line = node.position?.start.line;
        if (node.name === 'BenchFigure')
          found.push({ bench: props.bench, figure: props.figure, line });
        if (node.name === 'BenchSource') found.push({ bench: props.bench, figure: null, line });
        if (node.name === 'BenchTable') {
          for (const [, prefix] of props.rows) {
            for (const cell of props.cells) {
              for (const [, name] of cell.matchAll(PLACEHOLDER)) {
                found.push({
                  bench: props.bench,
                  figure: prefix ? `${prefix}.${name}` : name,
                  line,
                });
              }
            }
          }
        }
      }
      for (const child of node.children ?? []) walk(child);
    };
    walk(tree);
  };
  await compile(text, { remarkPlugins: [collect] });
  return found;
}

/** The marked figures of a Markdown file: { bench, figure, shown, line }. */
export function markdownMarks(text) {
  return [...text.matchAll(MARK)].map((m) => ({
    bench: m[2],
    figure: m[3],
    shown: m[1] ?? '',
    line: text.slice(0, m.index).split('\n').length,
  }));
}

/** Every problem with the figures `files` cite, as `file:line: what` (empty: none). */
export async function checkDocs(files = citingFiles(), dir = resultsDir) {
  const problems = [];
  const results = new Map();
  const missing = new Set();
  const result = (bench) => {
    if (!results.has(bench)) {
      try {
        results.set(bench, readResult(bench, dir));
      } catch (err) {
        results.set(bench, err);
      }
    }
    return results.get(bench);
  };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = file.startsWith(root) ? file.slice(root.length) : file;
    const cited = file.endsWith('.mdx') ? await mdxCitations(text) : markdownMarks(text);
    for (const c of cited) {
      const r = result(c.bench);
      const at = `${name}:${c.line}`;
      if (r instanceof Error) {
        // Once per file: the first line that cites the missing result.
        if (!missing.has(`${name} ${c.bench}`)) problems.push(`${at}: ${r.message}`);
        missing.add(`${name} ${c.bench}`);
      } else if (c.figure !== null && !(c.figure in r.figures)) {
        problems.push(`${at}: bench/results/${c.bench}.json has no figure ${c.figure}`);
      } else if (c.shown !== undefined) {
        const want = formatFigure(r.figures[c.figure]);
        if (c.shown !== want) {
          problems.push(
            `${at}: ${c.figure} reads ${c.shown || '(nothing)'}, the results say ${want}`,
          );
        }
      }
    }
  }
  return problems;
}

/** A Markdown text with each marked figure rewritten from the results. */
export function rewriteMarks(text, dir = resultsDir) {
  return text.replace(MARK, (_, _shown, bench, figure) => {
    const f = readResult(bench, dir).figures[figure];
    if (!f) throw new Error(`bench/results/${bench}.json has no figure ${figure}`);
    return `${formatFigure(f)}<!-- bench ${bench} ${figure} -->`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const written = citingFiles().filter((f) => f.endsWith('.md'));
    for (const file of written) writeFileSync(file, rewriteMarks(readFileSync(file, 'utf8')));
    // New figures change the width of table cells: realign the tables as `npm run lint` wants.
    execFileSync('npx', ['biome', 'format', '--write', ...written], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  const problems = await checkDocs();
  for (const p of problems) console.error(p);
  console.log(
    problems.length
      ? `${problems.length} figure(s) disagree`
      : 'docs figures agree with bench/results',
  );
  process.exit(problems.length ? 1 : 0);
}
