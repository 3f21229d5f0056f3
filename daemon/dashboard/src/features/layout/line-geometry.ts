// Where a route's line runs: from the source card's right edge to the route card's left edge,
// and from the route card's right edge to the sink card's left edge, as two curves. A card
// scrolled out of its panel anchors the line at the panel's edge, so the line still points to it.

import type { Config } from '../../api/schema';

export type Box = {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
};

interface Placed {
  readonly card: Box;
  /** The visible area of the panel the card scrolls in. */
  readonly column: Box | undefined;
}

interface Point {
  readonly x: number;
  readonly y: number;
  readonly hidden: boolean;
}

export function anchor({ card, column }: Placed, origin: Box, side: 'left' | 'right'): Point {
  const top = column ? Math.max(card.top, column.top) : card.top;
  const bottom = column ? Math.min(card.bottom, column.bottom) : card.bottom;
  const hidden = bottom <= top;
  const y =
    !hidden || !column ? (top + bottom) / 2 : card.top < column.top ? column.top : column.bottom;
  return {
    x: (side === 'right' ? card.right : card.left) - origin.left,
    y: y - origin.top,
    hidden,
  };
}

export function curve(a: Point, b: Point): string {
  const bend = Math.max(24, (b.x - a.x) / 2);
  return `M${a.x},${a.y} C${a.x + bend},${a.y} ${b.x - bend},${b.y} ${b.x},${b.y}`;
}

/** The SVG path of a route's line, and whether all three cards are out of sight. */
export function lineGeometry(origin: Box, from: Placed, via: Placed, to: Placed) {
  const a = anchor(from, origin, 'right');
  const b = anchor(via, origin, 'left');
  const c = anchor(via, origin, 'right');
  const d = anchor(to, origin, 'left');
  return { d: `${curve(a, b)} ${curve(c, d)}`, hidden: a.hidden && b.hidden && d.hidden };
}

export interface Line {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly state: string;
}

/** Every route whose source and sink exist, with the state its line is drawn in. */
export function linesOf(
  config: Config,
  states: ReadonlyMap<string, { chip: { state: string } }>,
): Line[] {
  const sources = new Map(config.sources.map((s) => [s.name, s.config_id]));
  const sinks = new Map(config.sinks.map((s) => [s.name, s.config_id]));
  return config.routes.flatMap((r) => {
    const from = sources.get(r.source);
    const to = sinks.get(r.sink);
    const state = r.enabled ? (states.get(r.config_id)?.chip.state ?? 'silent') : 'off';
    return from && to ? [{ id: r.config_id, from, to, state }] : [];
  });
}

/** Above this many routes the lines are a knot: only the focused entity's are drawn in full. */
export const FOCUS_LINES_ABOVE = 16;

/**
 * How a line is drawn: `full` (the focused entity's: the hovered or keyboard-focused card, the
 * hovered or selected line), `normal` (a small house: every line in its state's style) or `faint`
 * (a large house: every other line, so the focused entity's read through the rest).
 */
export type Emphasis = 'full' | 'normal' | 'faint';

export function emphasisOf(line: Line, focus: string, routes: number): Emphasis {
  if (focus !== '' && (line.id === focus || line.from === focus || line.to === focus))
    return 'full';
  return routes > FOCUS_LINES_ABOVE ? 'faint' : 'normal';
}
