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

const nameOf = (id: string | number) => {
  const config = live.getState().config;
  const all = [...(config?.sources ?? []), ...(config?.sinks ?? []), ...(config?.routes ?? [])];
  return all.find((e) => e.config_id === String(id))?.name ?? String(id);
};

/** What a screen reader hears while dragging. */
export const announcements: Announcements = {
  onDragStart: ({ active }) => {
    const data = dataOf(active);
    return data?.type === 'connect'
      ? `Picked up ${data.name}. Move onto a sink and drop to play it there.`
      : `Picked up ${nameOf(active.id)}.`;
  },
  onDragOver: ({ active, over }) =>
    over
      ? `${dataOf(active)?.type === 'connect' ? 'Over sink' : 'Over'} ${dataOf(over)?.type === 'sink-target' ? (dataOf(over) as { name: string }).name : nameOf(over.id)}.`
      : undefined,
  onDragEnd: ({ active, over }) =>
    over ? `Dropped ${nameOf(active.id)}.` : `Put ${nameOf(active.id)} back.`,
  onDragCancel: ({ active }) => `Cancelled moving ${nameOf(active.id)}.`,
};
