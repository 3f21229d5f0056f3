// The figures the docs quote are the committed results (issue 27): every figure an MDX page
// renders from bench/results/*.json is there, every figure a README writes out reads what the
// results hold, and every committed result has the one shape.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  checkDocs,
  citingFiles,
  markdownMarks,
  mdxCitations,
  rewriteMarks,
} from '../bench-docs.mjs';
import { readResult, resultsDir, root, SCHEMA } from '../bench-results.mjs';

test('every committed bench result has the shape of scripts/bench/bench-results.d.mts', () => {
  const files = readdirSync(resultsDir).filter((f) => f.endsWith('.json'));
  assert.ok(files.length > 0, 'bench/results holds results');
  for (const file of files) assert.equal(readResult(file.replace(/\.json$/, '')).schema, SCHEMA);
});

/** The pages that quote bench figures, and the benches each quotes: a table copied back by hand
 * (no citation left) fails here, not only the figures that are cited. */
const QUOTING = {
  'content/docs/processor.mdx': ['engine', 'fidelity', 'native', 'soak'],
  'content/docs/configuration.mdx': ['native'],
  'content/docs/mp3-stream.mdx': ['streams'],
  'content/docs/webrtc.mdx': ['streams'],
  'content/docs/linux-receiver.mdx': ['receive'],
  'native/receive/README.md': ['receive'],
  'native/README.md': ['aarch64', 'engine', 'native'],
  'daemon/README.md': ['solver'],
};

test('the docs quote only figures the committed results hold, as the benches printed them', async () => {
  const files = citingFiles();
  for (const [page, benches] of Object.entries(QUOTING)) {
    const file = join(root, page);
    assert.ok(files.includes(file), `${page} cites bench results`);
    const text = readFileSync(file, 'utf8');
    const cited = new Set(
      page.endsWith('.mdx')
        ? (await mdxCitations(text)).map((c) => c.bench)
        : markdownMarks(text).map((c) => c.bench),
    );
    assert.deepEqual([...cited].sort(), benches, `the benches ${page} quotes`);
  }
  assert.deepEqual(await checkDocs(files), []);
});

/** A results folder with one result, and docs citing it, in a temporary folder. */
function fixture(t) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-docs-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = readdirSync(resultsDir).find((f) => f.endsWith('.json'));
  const result = readResult(first.replace(/\.json$/, ''));
  const [id, figure] = Object.entries(result.figures).find(([, f]) => f.value !== null);
  writeFileSync(join(dir, 'r.json'), JSON.stringify({ ...result, bench: 'r' }));
  const shown = figure.value.toFixed(figure.digits);
  return { dir, id, shown };
}

test('a README figure that differs from its result, or a figure no result has, is named', async (t) => {
  const { dir, id, shown } = fixture(t);
  const md = join(dir, 'README.md');
  writeFileSync(md, `right ${shown}<!-- bench r ${id} -->\nwrong 123456<!-- bench r ${id} -->\n`);
  const mdx = join(dir, 'page.mdx');
  writeFileSync(
    mdx,
    `# t\n\n<BenchFigure bench="r" figure="${id}" /> and <BenchFigure bench="r" figure="no.such" />\n\n` +
      `<BenchTable bench="r" columns={['a', 'b']} rows={[['x', 'no']]} cells={['{such}']} />\n\n` +
      '<BenchSource bench="missing" />\n',
  );
  const problems = await checkDocs([md, mdx], dir);
  assert.deepEqual(problems, [
    `${md}:2: ${id} reads 123456, the results say ${shown}`,
    `${mdx}:3: bench/results/r.json has no figure no.such`,
    `${mdx}:5: bench/results/r.json has no figure no.such`,
    `${mdx}:7: ${join(dir, 'missing.json')} does not exist: run npm run bench -- missing --json`,
  ]);
  assert.equal(
    rewriteMarks(`wrong 1<!-- bench r ${id} -->`, dir),
    `wrong ${shown}<!-- bench r ${id} -->`,
  );
});
