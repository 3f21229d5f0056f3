// Which dialog is open. Cards, menus, buttons and shortcuts ask for one with openDialog(); the
// host renders it, loading each dialog's code only when it is first opened.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { Kind } from '../api/client';

export type DialogRequest =
  | { type: 'add-source'; rtp: boolean }
  | { type: 'add-sink' }
  | { type: 'add-route'; source?: string; sink?: string }
  | { type: 'add-group'; kind: 'source' | 'sink' }
  | { type: 'edit'; kind: Kind; name: string }
  | { type: 'delete'; kind: Kind; name: string }
  | { type: 'equalizer'; kind: Kind; name: string }
  | { type: 'delay'; kind: Kind; name: string }
  | { type: 'shortcuts' };

let current: DialogRequest | null = null;
const listeners = new Set<() => void>();

export function openDialog(request: DialogRequest): void {
  current = request;
  for (const listener of listeners) listener();
}

export function closeDialog(): void {
  openDialog(null as never);
}

export function useOpenDialog(): DialogRequest | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

const SourceDialog = lazy(() => import('./sources/SourceDialog'));
const SinkDialog = lazy(() => import('./sinks/SinkDialog'));
const RouteDialog = lazy(() => import('./routes/RouteDialog'));
const GroupDialog = lazy(() => import('./groups/GroupDialog'));
const DeleteDialog = lazy(() => import('./entities/DeleteDialog'));
const DelayDialog = lazy(() => import('./entities/DelayDialog'));
const EqualizerDialog = lazy(() => import('./equalizer/EqualizerDialog'));
const ShortcutsDialog = lazy(() => import('./layout/ShortcutsDialog'));
const EditDialog = lazy(() => import('./entities/EditDialog'));

export function DialogHost() {
  const request = useOpenDialog();
  if (!request) return null;
  return <Suspense fallback={null}>{render(request)}</Suspense>;
}

function render(request: DialogRequest) {
  switch (request.type) {
    case 'add-source':
      return <SourceDialog rtp={request.rtp} />;
    case 'add-sink':
      return <SinkDialog />;
    case 'add-route':
      return <RouteDialog initial={request} />;
    case 'add-group':
      return <GroupDialog kind={request.kind} />;
    case 'edit':
      return <EditDialog kind={request.kind} name={request.name} />;
    case 'delete':
      return <DeleteDialog kind={request.kind} name={request.name} />;
    case 'equalizer':
      return <EqualizerDialog kind={request.kind} name={request.name} />;
    case 'delay':
      return <DelayDialog kind={request.kind} name={request.name} />;
    case 'shortcuts':
      return <ShortcutsDialog />;
  }
}
