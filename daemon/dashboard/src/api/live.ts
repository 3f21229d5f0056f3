// The dashboard's live state: the configuration from /ws/config and the engine's counters from
// /ws/stats, nothing polled. Both sockets reconnect on their own (0.5 s, doubling to 5 s); a
// refused token is noticed through /api/health and shown as the login screen.
import {
  type Activity,
  ActivityTracker,
  computeActivity,
  EMPTY_ACTIVITY,
  keepUnchanged,
} from '../lib/activity';
import { rememberEntries } from './addresses';
import { api } from './client';
import {
  type Config,
  type ConfigMessage,
  type SolverOutput,
  type StatsMessage,
  solve,
} from './schema';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export interface LiveState {
  readonly connection: Connection;
  /** Revision of the configuration (0 before the first message). */
  readonly revision: number;
  readonly config: Config | null;
  readonly solved: SolverOutput | null;
  readonly stats: StatsMessage | null;
  readonly activity: Activity;
}

type Listener = () => void;
type Channel = 'config' | 'stats';

const INITIAL: LiveState = {
  connection: 'connecting',
  revision: 0,
  config: null,
  solved: null,
  stats: null,
  activity: EMPTY_ACTIVITY,
};

export class LiveStore {
  #state: LiveState = INITIAL;
  readonly #listeners = new Set<Listener>();
  readonly #sockets = new Map<Channel, WebSocket>();
  readonly #open = new Set<Channel>();
  readonly #tracker = new ActivityTracker();
  #retryMs = 500;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #everLive = false;
  #stopped = true;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getState = (): LiveState => this.#state;

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect('config');
    this.#connect('stats');
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const socket of this.#sockets.values()) socket.close();
    this.#sockets.clear();
    this.#open.clear();
  }

  /** After a login: forget the refusal and connect again. */
  restart(): void {
    this.stop();
    this.#set({ connection: 'connecting' });
    this.start();
  }

  #set(patch: Partial<LiveState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #connect(channel: Channel): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${channel}`);
    this.#sockets.set(channel, socket);
    socket.onopen = () => {
      this.#open.add(channel);
      this.#retryMs = 500;
      if (this.#open.size === 2) {
        this.#everLive = true;
        this.#set({ connection: 'live' });
      }
    };
    socket.onmessage = (event) => {
      try {
        const message = JSON.parse(String(event.data)) as ConfigMessage | StatsMessage;
        if (message.type === 'config') this.#onConfig(message);
        else if (message.type === 'stats') this.#onStats(message);
      } catch {
        // A message we cannot read is skipped; the next one replaces it anyway.
      }
    };
    socket.onclose = () => {
      if (this.#sockets.get(channel) !== socket) return;
      this.#sockets.delete(channel);
      this.#open.delete(channel);
      if (this.#stopped) return;
      if (this.#state.connection !== 'unauthorized') {
        this.#set({ connection: this.#everLive ? 'reconnecting' : 'connecting' });
      }
      this.#scheduleReconnect();
    };
  }

  #scheduleReconnect(): void {
    if (this.#timer) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, 5000);
    this.#timer = setTimeout(async () => {
      this.#timer = null;
      if (this.#stopped) return;
      const status = await api.health().catch(() => 0);
      if (status === 401) {
        this.stop();
        this.#set({ connection: 'unauthorized' });
        return;
      }
      for (const channel of ['config', 'stats'] as const) {
        if (!this.#sockets.has(channel)) this.#connect(channel);
      }
    }, delay);
  }

  #onConfig(message: ConfigMessage): void {
    // Every message is the whole configuration (a restarted daemon counts from 1 again).
    const solved = solve(message.config);
    rememberEntries(message.config);
    this.#set({
      revision: message.revision,
      config: message.config,
      solved,
      activity: this.#activity(message.config, solved, this.#state.stats),
    });
  }

  #onStats(message: StatsMessage): void {
    this.#tracker.observe(message, performance.now());
    const { config, solved } = this.#state;
    this.#set({
      stats: message,
      activity: config && solved ? this.#activity(config, solved, message) : EMPTY_ACTIVITY,
    });
  }

  #activity(config: Config, solved: SolverOutput, stats: StatsMessage | null): Activity {
    const next = computeActivity(config, solved, stats, this.#tracker, performance.now());
    return keepUnchanged(this.#state.activity, next);
  }
}

/** The one store of the page. */
export const live = new LiveStore();
