// Whether two JSON values (objects, arrays, Maps of them, primitives) are equal, field by field,
// without building strings: the live store compares every card's state with the last one on each
// stats message, and JSON.stringify of both sides cost a string per side per card.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN is not JSON; two of them are equal as JSON.stringify made them (null).
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], other[i])) return false;
    return true;
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !jsonEqual(v, b.get(k))) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Fields set to undefined are left out by JSON, so they are here too.
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const kx = keys(x);
  if (kx.length !== keys(y).length) return false;
  for (const k of kx) if (!jsonEqual(x[k], y[k])) return false;
  return true;
}
