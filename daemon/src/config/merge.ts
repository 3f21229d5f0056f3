// Three-way merge of a hand-edited file ("theirs") with the daemon's state ("ours") against the
// revision the daemon last wrote or read ("base"). Entries are matched by key (config_id for
// sinks, sources and routes; name for equalizer presets) and merged field by field, nested
// objects (equalizer, rtp) band by band. When both sides changed the same field differently the
// daemon's value wins: it was acknowledged to an API client, the hand edit was not.
import { isDeepStrictEqual } from 'node:util';

export interface MergeConflict {
  key: string;
  field: string;
}

type Obj = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeValue(
  base: unknown,
  ours: unknown,
  theirs: unknown,
  at: string,
  conflicts: string[],
): unknown {
  if (isDeepStrictEqual(ours, theirs) || isDeepStrictEqual(base, theirs)) return ours;
  if (isDeepStrictEqual(base, ours)) return theirs;
  if (isPlainObject(base) && isPlainObject(ours) && isPlainObject(theirs)) {
    const out: Obj = {};
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      out[key] = mergeValue(
        base[key],
        ours[key],
        theirs[key],
        at ? `${at}.${key}` : key,
        conflicts,
      );
    }
    return out;
  }
  conflicts.push(at);
  return ours;
}

/**
 * Merges three versions of a list of entries identified by `keyOf`. Order follows theirs, with
 * entries only ours appended. An entry deleted on one side and changed on the other is kept.
 */
export function mergeLists<T extends object>(
  base: readonly T[],
  ours: readonly T[],
  theirs: readonly T[],
  keyOf: (entry: T) => string,
  conflicts: MergeConflict[] = [],
): T[] {
  const baseBy = new Map(base.map((e) => [keyOf(e), e]));
  const oursBy = new Map(ours.map((e) => [keyOf(e), e]));
  const theirsKeys = new Set(theirs.map(keyOf));
  const out: T[] = [];
  for (const t of theirs) {
    const key = keyOf(t);
    const b = baseBy.get(key);
    const o = oursBy.get(key);
    if (o === undefined) {
      // Deleted by us (keep deleted unless they changed it) or added by them.
      if (b === undefined || !isDeepStrictEqual(b, t)) out.push(t);
      continue;
    }
    if (b === undefined) {
      // Added on both sides with the same key: ours wins on differing fields.
      const fields: string[] = [];
      out.push(mergeValue({}, o, t, '', fields) as T);
      for (const field of fields) conflicts.push({ key, field });
      continue;
    }
    const fields: string[] = [];
    out.push(mergeValue(b, o, t, '', fields) as T);
    for (const field of fields) conflicts.push({ key, field });
  }
  for (const o of ours) {
    const key = keyOf(o);
    if (theirsKeys.has(key)) continue;
    const b = baseBy.get(key);
    // Added by us, or deleted by them: keep it only if we changed it since base.
    if (b === undefined || !isDeepStrictEqual(b, o)) out.push(o);
  }
  return out;
}

/** Merges a settings section (sap, mdns) field by field, like one entry of a list. */
export function mergeSection<T extends object>(
  key: string,
  base: T,
  ours: T,
  theirs: T,
  conflicts: MergeConflict[] = [],
): T {
  const fields: string[] = [];
  const out = mergeValue(base, ours, theirs, '', fields) as T;
  for (const field of fields) conflicts.push({ key, field });
  return out;
}
