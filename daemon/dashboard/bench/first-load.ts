// First-load JavaScript of a Vite build: the entry script and every module it preloads (what the
// browser fetches before anything lazy), compressed one by one as the daemon sends them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export function firstLoadFiles(outDir: string): string[] {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b[^>]*\ssrc="([^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return [...new Set([...scripts, ...preloads])].map((src) =>
    path.join(outDir, src.replace(/^\.?\//, '')),
  );
}

export interface FirstLoad {
  readonly files: number;
  readonly rawBytes: number;
  readonly gzipBytes: number;
  readonly brotliBytes: number;
}

export function firstLoad(outDir: string): FirstLoad {
  const files = firstLoadFiles(outDir);
  let rawBytes = 0;
  let gzipBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const data = readFileSync(file);
    rawBytes += data.length;
    gzipBytes += gzipSync(data, { level: 9 }).length;
    brotliBytes += brotliCompressSync(data, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return { files: files.length, rawBytes, gzipBytes, brotliBytes };
}

/** The dashboard's budget for first-load JS, gzipped (issue 13). */
export const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;
