// The engine's levels over one /ws/levels socket per page (`mode=subscribe`): every meter and the
// visualizer is a subscription on it (subscribe and unsubscribe messages), and each message
// carries the union of them, read once by the engine. The socket opens with the first
// subscription, closes a moment after the last (so a view change does not reconnect),
// reconnects on its own and subscribes again. Levels come as binary frames (`encoding=binary`:
// the engine's float32 values, decoded here); refusals as JSON text. Listeners get every
// message; meters and the visualizer draw from it without React re-rendering 30 times a second.
import {
  decodeLevelsFrame,
  type LevelsMessage,
  type LevelsQuery,
  type LevelsRefusal,
} from './schema';

type Listener = (message: LevelsMessage) => void;

const RETRY_MS = 1000;
/** How long the socket stays open with no subscription, for the next view's meters. */
const LINGER_MS = 2000;

/** What one subscription asks for: the fields of the levels query. */
export type LevelSubscription = LevelsQuery;

/** The subscription's key on the page: its query, written in a fixed order. */
export function subscriptionKey({ sink, source, detail = 'full' }: LevelSubscription): string {
  return [sink && `sink=${sink}`, source && `source=${source}`, `detail=${detail}`]
    .filter(Boolean)
    .join('&');
}

/** What this module uses of a WebSocket (tests give it another). */
export type LevelSocketLike = Pick<
  WebSocket,
  'readyState' | 'onopen' | 'onmessage' | 'onclose' | 'send' | 'close'
>;

export class LevelSocket {
  readonly #connect: () => LevelSocketLike;
  /** By key; each with the short id the socket knows it by. */
  readonly #subscriptions = new Map<
    string,
    { id: string; query: LevelSubscription; listeners: Set<Listener> }
  >();
  #made = 0;
  #socket: LevelSocketLike | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #linger: ReturnType<typeof setTimeout> | null = null;

  constructor(connect: () => LevelSocketLike) {
    this.#connect = connect;
  }

  /** Listens to the levels `query` asks for; the first listener of a query subscribes it. */
  subscribe(query: LevelSubscription, listener: Listener): () => void {
    const key = subscriptionKey(query);
    let entry = this.#subscriptions.get(key);
    if (!entry) {
      entry = { id: `s${++this.#made}`, query, listeners: new Set() };
      this.#subscriptions.set(key, entry);
      this.#send({ type: 'subscribe', id: entry.id, ...query });
    }
    entry.listeners.add(listener);
    if (this.#linger) clearTimeout(this.#linger);
    this.#linger = null;
    if (!this.#socket && !this.#retry) this.#open();
    const mine = entry;
    return () => {
      mine.listeners.delete(listener);
      if (mine.listeners.size > 0 || this.#subscriptions.get(key) !== mine) return;
      this.#subscriptions.delete(key);
      this.#send({ type: 'unsubscribe', id: mine.id });
      if (this.#subscriptions.size === 0 && !this.#linger) {
        this.#linger = setTimeout(() => {
          this.#linger = null;
          if (this.#subscriptions.size === 0) this.#close();
        }, LINGER_MS);
      }
    };
  }

  #send(message: object): void {
    if (this.#socket?.readyState === 1) this.#socket.send(JSON.stringify(message));
  }

  #open(): void {
    const socket = this.#connect();
    this.#socket = socket;
    socket.onopen = () => {
      for (const { id, query } of this.#subscriptions.values()) {
        socket.send(JSON.stringify({ type: 'subscribe', id, ...query }));
      }
    };
    socket.onmessage = (event) => {
      let message: LevelsMessage | LevelsRefusal;
      try {
        const data: unknown = event.data;
        message =
          data instanceof ArrayBuffer || data instanceof Uint8Array
            ? decodeLevelsFrame(data)
            : (JSON.parse(String(data)) as LevelsMessage | LevelsRefusal);
      } catch {
        return; // A message we cannot read is skipped; the next comes 33 ms later.
      }
      if (message.type === 'error') {
        // What this module sends should never be refused: if it is, say so where it shows.
        console.error(`/ws/levels refused a subscription: ${message.message}`);
        return;
      }
      for (const { listeners } of this.#subscriptions.values()) {
        for (const listener of listeners) listener(message);
      }
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (this.#subscriptions.size === 0) return;
      this.#retry = setTimeout(() => {
        this.#retry = null;
        if (this.#subscriptions.size > 0 && !this.#socket) this.#open();
      }, RETRY_MS);
    };
  }

  #close(): void {
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const socket = this.#socket;
    this.#socket = null;
    socket?.close();
  }
}

let shared: LevelSocket | null = null;

/** The page's one levels socket. */
export function levelSocket(): LevelSocket {
  shared ??= new LevelSocket(() => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(
      `${scheme}://${location.host}/ws/levels?mode=subscribe&encoding=binary`,
    );
    socket.binaryType = 'arraybuffer';
    return socket;
  });
  return shared;
}
