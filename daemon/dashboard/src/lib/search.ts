/** Whether every word of `query` appears in one of `fields` (case- and accent-insensitive). */
export function matchesQuery(
  query: string,
  fields: readonly (string | number | null | undefined)[],
): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold(fields.filter((f) => f !== null && f !== undefined).join(' '));
  return words.every((word) => haystack.includes(word));
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
