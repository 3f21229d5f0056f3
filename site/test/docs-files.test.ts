import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageIds } from '@content/nav';
import { describe, expect, test } from '@jest/globals';

const docsDir = path.join(__dirname, '..', '..', 'content', 'docs');
const files = existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith('.mdx')) : [];

describe('content/docs', () => {
  test('every MDX file is a page id of content/nav.ts', () => {
    const ids = new Set<string>(pageIds);
    expect(files.map((f) => f.replace(/\.mdx$/, '')).filter((id) => !ids.has(id))).toEqual([]);
  });

  test('every MDX file starts with its metadata export (no YAML front matter)', () => {
    for (const file of files) {
      const text = readFileSync(path.join(docsDir, file), 'utf8');
      expect([file, /^export const metadata = \{/.test(text)]).toEqual([file, true]);
    }
  });

  // TODO(site): turn into plain tests once the docs writer has written every page; until then a
  // missing page shows as skipped here and as a placeholder on the site.
  for (const id of pageIds) {
    const file = path.join(docsDir, `${id}.mdx`);
    const written = existsSync(file);
    (written ? test : test.skip)(
      `page ${id} has its MDX file${written ? '' : ' (not written yet)'}`,
      () => {
        expect(existsSync(file)).toBe(true);
      },
    );
  }
});
