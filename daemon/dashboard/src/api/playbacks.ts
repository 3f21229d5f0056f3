// What plays from URLs (GET /plugins/playurl/), for the sink cards. The listing is fetched when
// /ws/stats says a playback started, ended or skipped a URL (`plugins.playing/played/skipped`,
// which the page receives anyway, once a second), and every few seconds while one plays, so a
// list's move to its next URL shows. While nothing plays the page asks nothing.
import { useSyncExternalStore } from 'react';
import { playbackSignal, somethingPlays } from '../lib/playbacks';
import { api } from './client';
import { live } from './live';
import type { PlaybackView } from './schema';

/** While something plays, the listing is fetched again after this many stats messages. */
const REFRESH_EVERY = 5;

let list: readonly PlaybackView[] = [];
let signal = '';
let sinceFetch = 0;
let fetching = false;
let again = false;
let detach: (() => void) | null = null;
const listeners = new Set<() => void>();

/** Fetches the listing now (one request at a time; a call during one asks for another after). */
export async function refreshPlaybacks(): Promise<void> {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  sinceFetch = 0;
  try {
    list = await api.playbacks();
    for (const listener of listeners) listener();
  } catch {
    // The next signal or refresh tries again; a card keeps what it showed.
  } finally {
    fetching = false;
    if (again) {
      again = false;
      void refreshPlaybacks();
    }
  }
}

function onLive(): void {
  const stats = live.getState().stats;
  const next = playbackSignal(stats);
  if (next !== signal) {
    signal = next;
    void refreshPlaybacks();
  } else if (somethingPlays(stats) && ++sinceFetch >= REFRESH_EVERY) {
    void refreshPlaybacks();
  }
}

let lastStats: unknown = null;
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  detach ??= live.subscribe(() => {
    const stats = live.getState().stats;
    if (stats === lastStats) return;
    lastStats = stats;
    onLive();
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && detach) {
      detach();
      detach = null;
      signal = '';
    }
  };
}

/** Every playback not over yet. */
export function usePlaybacks(): readonly PlaybackView[] {
  return useSyncExternalStore(subscribe, () => list);
}
