// The engine's levels over /ws/levels: one socket per query, open only while something on the
// page listens (the engine measures a sink only while someone reads it), reconnecting on its
// own. Listeners get every message; meters and the visualizer draw from it without React
// re-rendering 30 times a second.
import type { LevelsMessage } from './schema';

type Listener = (message: LevelsMessage) => void;

const RETRY_MS = 1000;

export class LevelFeed {
  readonly #query: string;
  readonly #listeners = new Set<Listener>();
  #socket: WebSocket | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #latest: LevelsMessage | null = null;

  constructor(query: string) {
    this.#query = query;
  }

  get latest(): LevelsMessage | null {
    return this.#latest;
  }

  /** Listens; the socket opens with the first listener and closes with the last. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.#open();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#close();
    };
  }

  #open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.#query ? `?${this.#query}` : '';
    const socket = new WebSocket(`${scheme}://${location.host}/ws/levels${query}`);
    this.#socket = socket;
    socket.onmessage = (event) => {
      try {
        const message = JSON.parse(String(event.data)) as LevelsMessage;
        if (message.type !== 'levels') return;
        this.#latest = message;
        for (const listener of this.#listeners) listener(message);
      } catch {
        // A message we cannot read is skipped; the next comes 33 ms later.
      }
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (this.#listeners.size > 0) {
        this.#retry = setTimeout(() => {
          this.#retry = null;
          if (this.#listeners.size > 0 && !this.#socket) this.#open();
        }, RETRY_MS);
      }
    };
  }

  #close(): void {
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const socket = this.#socket;
    this.#socket = null;
    this.#latest = null;
    socket?.close();
  }
}

const feeds = new Map<string, LevelFeed>();

/** The feed of one query (`detail=meter` for every sink's meters; `sink=ID` for one). */
export function levelFeed(query: string): LevelFeed {
  let feed = feeds.get(query);
  if (!feed) {
    feed = new LevelFeed(query);
    feeds.set(query, feed);
  }
  return feed;
}
