// No text in the dashboard says a built feature is not built (issue 31). The product's feature
// list is the Status table of the docs' overview (content/docs/overview.mdx): a dashboard string
// may say "not built yet" only of a feature that table lists as not built, and that table may not
// list as not built a feature the dashboard ships.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const overview = readFileSync(join(root, '../../content/docs/overview.mdx'), 'utf8');

/** The Status table's rows: [part, state]. */
function statusRows(): [string, string][] {
  const section = overview.split('## Status')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---') && !/^\| Part /.test(line))
    .map((line) => {
      const cells = line.split('|').map((c) => c.trim());
      return [cells[1]!, cells[2]!];
    });
}

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .replace(/<[^>]*>|`/g, ' ')
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1),
  );

/** Each feature the table calls not built, as its set of words ("RTCP time sync"). */
function notBuilt(): Set<string>[] {
  const out: Set<string>[] = [];
  for (const [part, state] of statusRows()) {
    const items: string[] = [];
    if (/^not built/i.test(state)) items.push(...part.split(/, | and /));
    const inside = /\(([^)]*) (?:is|are) not built yet\)/i.exec(state);
    if (inside) items.push(...inside[1]!.replace(/^the /, '').split(/, | and /));
    for (const item of items) out.push(words(item));
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** Features the dashboard ships, each with the file that proves it and the words that name it. */
const SHIPPED = [
  { file: 'src/features/entities/ListenButton.tsx', names: ['webrtc', 'listen in browser'] },
  { file: 'src/features/entities/StreamLink.tsx', names: ['mp3 streams', 'stream buttons'] },
  { file: 'src/features/visualizer/Visualizer.tsx', names: ['visualizer'] },
  { file: 'src/features/vnc/VncViewer.tsx', names: ['vnc viewer'] },
  { file: 'src/features/sources/SourceDialog.tsx', names: ['sap discovery', 'sap'] },
];

test('the Status table lists as not built no feature the dashboard ships', () => {
  const missing = notBuilt();
  assert.ok(missing.length > 0, 'the table lists what is not built');
  const wrong: string[] = [];
  for (const { file, names } of SHIPPED) {
    readFileSync(join(root, file)); // the feature is there
    for (const name of names) {
      const nameWords = words(name);
      for (const item of missing) {
        if ([...nameWords].every((w) => item.has(w)))
          wrong.push(`${[...item].join(' ')} (${file})`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('the dashboard says "not built" only of a feature the Status table lists as not built', () => {
  const missing = notBuilt();
  const wrong: string[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [i, line] of lines.entries()) {
      if (!/not (yet )?built|not available yet|coming soon/i.test(line)) continue;
      const said = words(line);
      const named = missing.some((item) => [...item].every((w) => said.has(w)));
      if (!named) wrong.push(`${file.slice(root.length)}:${i + 1}: ${line.trim()}`);
    }
  }
  assert.deepEqual(wrong, []);
});
