import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageIds } from '@content/nav';
import { describe, expect, test } from '@jest/globals';
import { exportedSegments } from '@/lib/docs-nav';

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

  test('every fenced code block names its language (the contract; the label and copy button use it)', () => {
    const bare: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(docsDir, file), 'utf8').split('\n');
      let open = false;
      lines.forEach((line, index) => {
        const fence = /^\s*(```+|~~~+)(.*)$/.exec(line);
        if (!fence) return;
        if (!open && (fence[2] ?? '').trim() === '') bare.push(`${file}:${index + 1}`);
        open = !open;
      });
    }
    expect(bare).toEqual([]);
  });

  test('internal links use /docs/<segment>/ of an exported segment, with the trailing slash', () => {
    const segments = new Set(exportedSegments());
    const wrong: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(docsDir, file), 'utf8');
      for (const [, href] of text.matchAll(/\]\((\/docs\/[^)\s#]*)/g)) {
        const segment = /^\/docs\/([^/]*)\/?$/.exec(href ?? '')?.[1];
        if (segment === undefined || !segments.has(segment) || !href?.endsWith('/')) {
          wrong.push(`${file}: ${href}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test('a tcpdump command says how to install tcpdump in its paragraph (Debian servers have none)', () => {
    const bare: string[] = [];
    for (const file of files) {
      const paragraphs = readFileSync(path.join(docsDir, file), 'utf8').split(/\n\s*\n/);
      for (const paragraph of paragraphs) {
        const command = paragraph.indexOf('sudo tcpdump');
        const install = paragraph.indexOf('apt install tcpdump');
        if (command >= 0 && (install < 0 || install > command)) {
          bare.push(`${file}: ${paragraph.slice(command, command + 60)}`);
        }
      }
    }
    expect(bare).toEqual([]);
  });

  test.each(pageIds.map((id) => [id]))('page %s has its MDX file', (id) => {
    expect(existsSync(path.join(docsDir, `${id}.mdx`))).toBe(true);
  });
});
