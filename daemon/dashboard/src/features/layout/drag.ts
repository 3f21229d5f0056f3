// Drag and drop (dnd-kit): reordering favorites inside a panel, and dragging a source's port onto
// a sink to create a route. Each drag only sees the drop targets of its own kind.
import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  type DragEndEvent,
  pointerWithin,
} from '@dnd-kit/core';
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
  return active?.type === 'connect'
    ? pointerWithin({ ...args, droppableContainers })
    : closestCenter({ ...args, droppableContainers });
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
      ? `Picked up ${nameOf(active)}. Move onto a sink and drop to play it there.`
      : `Picked up ${nameOf(active)}.`,
  onDragOver: ({ over }) => (over ? `Over ${nameOf(over)}.` : undefined),
  onDragEnd: ({ active, over }) =>
    over ? `Dropped ${nameOf(active)} on ${nameOf(over)}.` : `Put ${nameOf(active)} back.`,
  onDragCancel: ({ active }) => `Cancelled moving ${nameOf(active)}.`,
};
