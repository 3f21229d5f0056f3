// The route matrix's logic (features/routes/RouteMatrix.tsx): which routes join each source and
// sink, and where the arrow keys take the focus in the grid.

/** The key of a source/sink pair in `routesByPair`. */
export const pairKey = (source: string, sink: string) => `${source}\u0000${sink}`;

/** Routes by the (source name, sink name) they join, in configuration order. */
export function routesByPair<R extends { source: string; sink: string }>(
  routes: readonly R[],
): Map<string, R[]> {
  const pairs = new Map<string, R[]>();
  for (const route of routes) {
    const key = pairKey(route.source, route.sink);
    const list = pairs.get(key);
    if (list) list.push(route);
    else pairs.set(key, [route]);
  }
  return pairs;
}

export interface Cell {
  readonly row: number;
  readonly column: number;
}

/**
 * The cell a key moves to from `at` in a grid of `rows` x `columns` (the ARIA grid pattern:
 * arrows one cell, stopping at the edges; Home/End the row's first/last; Ctrl+Home/End the
 * grid's; PageUp/PageDown `page` rows), or null for a key that does not move.
 */
export function moveCell(
  key: string,
  ctrl: boolean,
  at: Cell,
  rows: number,
  columns: number,
  page = 8,
): Cell | null {
  const clamp = (row: number, column: number): Cell => ({
    row: Math.max(0, Math.min(rows - 1, row)),
    column: Math.max(0, Math.min(columns - 1, column)),
  });
  switch (key) {
    case 'ArrowRight':
      return clamp(at.row, at.column + 1);
    case 'ArrowLeft':
      return clamp(at.row, at.column - 1);
    case 'ArrowDown':
      return clamp(at.row + 1, at.column);
    case 'ArrowUp':
      return clamp(at.row - 1, at.column);
    case 'Home':
      return ctrl ? clamp(0, 0) : clamp(at.row, 0);
    case 'End':
      return ctrl ? clamp(rows - 1, columns - 1) : clamp(at.row, columns - 1);
    case 'PageDown':
      return clamp(at.row + page, at.column);
    case 'PageUp':
      return clamp(at.row - page, at.column);
    default:
      return null;
  }
}
