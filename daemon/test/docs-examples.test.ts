// The documentation's config.yaml and equalizers.yaml examples (content/docs/*.mdx) are files
// the daemon accepts, so a reader who copies one gets a working configuration.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigFileError, parseConfigText, parseEqualizersText } from '../src/config/documents.js';

const docs = fileURLToPath(new URL('../../content/docs/', import.meta.url));
/** Pages that describe fields not built yet, and say so: their examples show the design. */
const planned = new Set<string>([]);

/** Every ```yaml block of every page, with its top-level keys. */
const blocks = readdirSync(docs)
  .filter((file) => file.endsWith('.mdx'))
  .flatMap((file) =>
    [...readFileSync(join(docs, file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m, i) => ({
      where: `${file} yaml block ${i + 1}`,
      file,
      text: m[1]!,
      keys: [...m[1]!.matchAll(/^([a-z_]+):/gm)].map((k) => k[1]!),
    })),
  );

const isConfig = (keys: string[]) =>
  keys.length > 0 &&
  keys.every((k) => ['revision', 'sinks', 'sources', 'routes', 'plugins'].includes(k));

test('the docs have config.yaml and equalizers.yaml examples to check', () => {
  assert.ok(blocks.filter((b) => isConfig(b.keys)).length >= 8);
  assert.ok(blocks.some((b) => b.keys.join() === 'equalizers'));
});

test('every config.yaml and equalizers.yaml example in the docs passes tributary config check', () => {
  const failures: string[] = [];
  for (const block of blocks) {
    if (planned.has(block.file)) continue;
    const parse = isConfig(block.keys)
      ? parseConfigText
      : block.keys.join() === 'equalizers'
        ? parseEqualizersText
        : null;
    if (!parse) continue;
    try {
      parse(block.text, block.where);
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      // A fragment (just the routes) may name sinks and sources from the page's other examples.
      for (const p of err.problems.filter((p) => p.keyword !== 'reference')) {
        failures.push(`${block.where}: ${p.message}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
