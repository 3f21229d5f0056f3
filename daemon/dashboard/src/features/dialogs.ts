// Which dialog is open. Cards, menus, buttons and shortcuts ask for one with openDialog(); the
// host (DialogHost.tsx) renders it. Kept apart from the host, which imports every dialog, so a
// dialog that closes itself imports no circle.
import { useSyncExternalStore } from 'react';
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
  | { type: 'play-url'; sink: string }
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
