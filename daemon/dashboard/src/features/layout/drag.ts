// Drag and drop (dnd-kit): reordering favorites inside a panel, and dragging a source's port onto
// a sink to create a route. Each drag only sees the drop targets of its own kind.
import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  pointerWithin,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { live } from '../../api/live';
import { reorderFavorites } from '../../lib/favorites';
import { connect, saveFavorites } from '../entities/actions';

type DragData =
  | { type: 'favorite'; kind: string }
  | { type: 'connect'; name: string }
  | { type: 'sink-target'; name: string };

const dataOf = (x: { data: { current?: unknown } } | null) =>
  x?.data.current as DragData | undefined;

export const collisions: CollisionDetection = (args) => {
  const active = dataOf(args.active);
  const accepts = (c: (typeof args.droppableContainers)[number]) => {
    const target = dataOf(c);
    if (active?.type === 'connect') return target?.type === 'sink-target';
    if (active?.type === 'favorite')
      return target?.type === 'favorite' && target.kind === active.kind;
    return false;
  };
  const droppableContainers = args.droppableContainers.filter(accepts);
  // A connect drag by keyboard has no pointer: the sink the keys moved onto is the closest.
  return active?.type === 'connect' && args.pointerCoordinates
    ? pointerWithin({ ...args, droppableContainers })
    : closestCenter({ ...args, droppableContainers });
};

const NEXT = new Set(['ArrowDown', 'ArrowRight']);
const PREVIOUS = new Set(['ArrowUp', 'ArrowLeft']);

/**
 * The keys while dragging. A source's port (a connect drag) goes from sink to sink with the arrow
 * keys, top to bottom, so Space on the port, arrows, Space connects; favorites reorder as sortable
 * lists do.
 */
export const keyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { active, collisionRect, droppableRects, droppableContainers, over } = args.context;
  if (dataOf(active)?.type !== 'connect') return sortableKeyboardCoordinates(event, args);
  const step = NEXT.has(event.code) ? 1 : PREVIOUS.has(event.code) ? -1 : 0;
  if (step === 0 || !collisionRect) return undefined;
  event.preventDefault();
  const centre = (r: { top: number; height: number }) => r.top + r.height / 2;
  const sinks = droppableContainers
    .getEnabled()
    .filter((c) => dataOf(c)?.type === 'sink-target' && droppableRects.has(c.id))
    .map((c) => droppableRects.get(c.id)!)
    .sort((a, b) => centre(a) - centre(b));
  // From the sink it is over (the nearest as soon as it is picked up), the next below or above.
  const overRect =
    over && dataOf(over)?.type === 'sink-target' ? droppableRects.get(over.id) : null;
  const here = centre(overRect ?? collisionRect);
  const onSink = overRect != null || sinks.some((r) => Math.abs(centre(r) - here) <= 1);
  const rect = !onSink
    ? sinks.reduce<(typeof sinks)[number] | undefined>(
        (best, r) =>
          best && Math.abs(centre(best) - here) <= Math.abs(centre(r) - here) ? best : r,
        undefined,
      )
    : step > 0
      ? sinks.find((r) => centre(r) > here + 1)
      : sinks.findLast((r) => centre(r) < here - 1);
  if (!rect) return undefined;
  return {
    x: rect.left + rect.width / 2 - collisionRect.width / 2,
    y: rect.top + rect.height / 2 - collisionRect.height / 2,
  };
};

export function onDragEnd({ active, over }: DragEndEvent): void {
  const from = dataOf(active);
  const to = dataOf(over);
  if (!from || !to || !over) return;
  if (from.type === 'connect' && to.type === 'sink-target') {
    void connect(from.name, to.name);
    return;
  }
  if (from.type === 'favorite' && to.type === 'favorite' && active.id !== over.id) {
    const config = live.getState().config;
    if (!config) return;
    const list =
      from.kind === 'source' ? config.sources : from.kind === 'sink' ? config.sinks : config.routes;
    const panel = new Set(list.map((e) => e.config_id));
    void saveFavorites(
      reorderFavorites(config.favorites, panel, String(active.id), String(over.id)),
    );
  }
}

/** The name of what is dragged or hovered: a connect drag carries it; favorites are looked up. */
function nameOf(item: { id: string | number; data: { current?: unknown } }): string {
  const data = dataOf(item);
  if (data && 'name' in data) return data.name;
  const config = live.getState().config;
  const all = [...(config?.sources ?? []), ...(config?.sinks ?? []), ...(config?.routes ?? [])];
  return all.find((e) => e.config_id === String(item.id))?.name ?? String(item.id);
}

/** What a screen reader hears while dragging. */
export const announcements: Announcements = {
  onDragStart: ({ active }) =>
    dataOf(active)?.type === 'connect'
      ? `Picked up ${nameOf(active)}. Move onto a sink (arrow keys) and drop it (Space) to play it there; Escape cancels.`
      : `Picked up ${nameOf(active)}.`,
  onDragOver: ({ over }) => (over ? `Over ${nameOf(over)}.` : undefined),
  onDragEnd: ({ active, over }) => {
    if (!over) return `Put ${nameOf(active)} back.`;
    return dataOf(active)?.type === 'connect' && dataOf(over)?.type === 'sink-target'
      ? `${nameOf(active)} now plays on ${nameOf(over)}.`
      : `Dropped ${nameOf(active)} on ${nameOf(over)}.`;
  },
  onDragCancel: ({ active }) => `Cancelled moving ${nameOf(active)}.`,
};
