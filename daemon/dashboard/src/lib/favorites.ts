// The favorites list is one ordered list of config_ids of every kind; each panel shows its own
// kind's in that order. Reordering inside a panel keeps the other kinds where they are.

export function toggleFavorite(list: readonly string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/**
 * Moves `active` to where `over` is, among the ids of one panel (`panel`), and writes them back
 * into the slots that panel's ids hold in the whole list.
 */
export function reorderFavorites(
  list: readonly string[],
  panel: ReadonlySet<string>,
  active: string,
  over: string,
): string[] {
  const slots: number[] = [];
  const ids: string[] = [];
  list.forEach((id, i) => {
    if (panel.has(id)) {
      slots.push(i);
      ids.push(id);
    }
  });
  const from = ids.indexOf(active);
  const to = ids.indexOf(over);
  if (from < 0 || to < 0 || from === to) return [...list];
  const [moved] = ids.splice(from, 1);
  ids.splice(to, 0, moved!);
  const out = [...list];
  slots.forEach((slot, i) => {
    out[slot] = ids[i]!;
  });
  return out;
}

/** Puts `id` back at `index` (an undone delete), or at the end when the list got shorter. */
export function restoreFavorite(list: readonly string[], id: string, index: number): string[] {
  if (list.includes(id)) return [...list];
  const out = [...list];
  out.splice(Math.min(index, out.length), 0, id);
  return out;
}
