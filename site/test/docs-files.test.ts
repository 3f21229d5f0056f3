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

  test.each(pageIds.map((id) => [id]))('page %s has its MDX file', (id) => {
    expect(existsSync(path.join(docsDir, `${id}.mdx`))).toBe(true);
  });
});
