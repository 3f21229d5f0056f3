import { useSyncExternalStore } from 'react';
import { type LiveState, live } from './live';

/** A slice of the live state; the component re-renders when that slice changes identity. */
export function useLive<T>(select: (state: LiveState) => T): T {
  return useSyncExternalStore(live.subscribe, () => select(live.getState()));
}
