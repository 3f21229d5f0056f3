import { readFileSync } from 'node:fs';

/** The daemon package's version, read once from its package.json (works from src/ and dist/). */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
