// A configuration file that lost its content behind the daemon's back: emptied, or cut short
// at a line boundary (an editor or a disk that failed half-way through a save). Such a file is
// still valid YAML, so validation alone would load it and silently drop what was cut off.
//
// The daemon keeps the last version it wrote or accepted beside the file
// (`config.yaml.last-good`) and compares: a file that is empty, or the beginning of that
// version with entries missing, is refused at start and not used while running.
import { parse } from 'yaml';
import { readTextIfExists, writeFileAtomic } from '../files.js';

/** Where the last good version of `path` is kept. */
export function lastGoodPath(path: string): string {
  return `${path}.last-good`;
}

/** Entries (sinks, sources, routes, presets) in a file's text; null when it cannot be read. */
function entries(text: string): number | null {
  try {
    const data = parse(text) as unknown;
    if (data === null || data === undefined) return 0;
    if (typeof data !== 'object') return null;
    return Object.values(data).reduce<number>(
      (sum, v) => sum + (Array.isArray(v) ? v.length : 0),
      0,
    );
  } catch {
    return null;
  }
}

/**
 * Why `text` looks like a damaged copy of `good` (the last version known good), or null.
 * Damaged: no content at all while `good` had entries, or the first part of `good` (cut at
 * any point) with entries missing or unreadable.
 */
export function damage(text: string, good: string | null): string | null {
  if (good === null || text === good) return null;
  const had = entries(good);
  if (!had) return null;
  const has = entries(text);
  const empty = has === 0 && Object.keys((safeParse(text) ?? {}) as object).length === 0;
  if (empty) return `is empty, but the last version had ${plural(had, 'entry', 'entries')}`;
  if (good.startsWith(text) && (has === null || has < had)) {
    return (
      `ends early: it is the first ${text.length} of the ${good.length} bytes of the last ` +
      `version, with ${has === null ? 'an unreadable end' : `${has} of its ${had} entries`}`
    );
  }
  return null;
}

function safeParse(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return null;
  }
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The message for a damaged file: what is wrong and both ways out. */
export function damageMessage(path: string, why: string, running: boolean): string {
  const good = lastGoodPath(path);
  return (
    `${path} ${why}; it looks truncated, so it is not ${running ? 'used' : 'loaded'}.\n` +
    `  To restore the last good version: cp '${good}' '${path}'\n` +
    (running
      ? '  If you meant it, add any line (a comment will do) to the end and save it again.'
      : `  If you meant it, remove '${good}' and start again.`)
  );
}

/** The last good version of `path`, or null when there is none. */
export function readLastGood(path: string): Promise<string | null> {
  return readTextIfExists(lastGoodPath(path));
}

/**
 * Keeps `text` as the last good version of `path`. Not fsynced: it is a reference for the
 * check above, and losing its newest version in a power cut costs nothing but that check.
 */
export async function keepLastGood(path: string, text: string): Promise<void> {
  await writeFileAtomic(lastGoodPath(path), text, 0o600, async () => true, false);
}
