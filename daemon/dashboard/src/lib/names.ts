/** `base`, or `base 2`, `base 3`... whichever no entry in `taken` has. */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  const trimmed = base.trim().slice(0, 60);
  if (!names.has(trimmed)) return trimmed;
  for (let n = 2; ; n++) {
    const candidate = `${trimmed} ${n}`;
    if (!names.has(candidate)) return candidate;
  }
}

/** A route's default name: "Desktop PC to Living Room". */
export function routeName(source: string, sink: string): string {
  return `${source} to ${sink}`.slice(0, 64);
}
