// First-load JavaScript of an exported page: every script its HTML loads before anything lazy,
// gzipped one by one (as a CDN serves them), in bytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export function firstLoadScripts(outDir: string, htmlFile: string): string[] {
  const html = readFileSync(path.join(outDir, htmlFile), 'utf8');
  const sources = [...html.matchAll(/<script\b[^>]*\ssrc="([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  return [...new Set(sources)];
}

export function firstLoadGzipBytes(outDir: string, htmlFile: string, basePath = ''): number {
  return firstLoadScripts(outDir, htmlFile)
    .map((src) => path.join(outDir, src.slice(basePath.length)))
    .reduce((total, file) => total + gzipSync(readFileSync(file), { level: 9 }).length, 0);
}
