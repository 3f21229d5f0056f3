// One playback: a list of URLs played in order on a sink (or sink group) as temporary sources,
// each decoded in-process by the engine (its decoder thread; nothing here touches samples). The
// next URL is opened and decoded ahead while the current one plays, and switched to the moment
// the current one has handed the engine its last frame, so a list plays without gaps; a URL that
// fails is skipped and its reason kept for the listing. The engine never waits on this: when
// JavaScript is late the source runs dry and the engine counts it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlaybackItem, PlaybackView } from '../../schema/plugins.js';
import type { TemporarySources } from '../temporary.js';
import { PlayUrlError, type PlayUrlStatus } from './errors.js';
import type { PlayUrlLimits } from './limits.js';
import { type OpenedAudio, openUrl } from './open-url.js';

/** What a playback needs of the engine (EngineService's in-process sources). */
export interface PlaybackEngine {
  addDecodedSource(id: string, options: DecodedOptions): DecodedLike | null;
  removeMemorySource(id: string): boolean;
}

/** The decoder options the engine takes (`DecodedSourceOptions` of the binding). */
export interface DecodedOptions {
  ringMs?: number;
  hint?: string;
  maxSeconds?: number;
  inputBytes?: number;
}

/** An in-process source the engine decodes (`DecodedSource` of the binding). */
export interface DecodedLike {
  push(chunk: Uint8Array): boolean;
  finish(): void;
  readonly status: {
    state: 'probing' | 'playing' | 'drained' | 'failed';
    error?: string | null;
    codec?: string | null;
    sample_rate?: number | null;
    channels?: number | null;
    queued_frames?: number;
  };
}

export interface PlaybackDeps {
  readonly engine: PlaybackEngine;
  readonly temporary: TemporarySources;
  readonly limits: PlayUrlLimits;
  /** The plugin whose playback it is (names its sources in the statistics). */
  readonly plugin: string;
  readonly log: { info(msg: string): void; warn(msg: string): void };
}

/** How often the decoder's state is looked at while waiting on it. */
const POLL_MS = 10;
/** Input handed to the decoder at a time (its queue holds 1 MiB). */
const PUSH_BYTES = 64 * 1024;
/** Audio the engine's ring holds ahead (the decoder stays this far ahead of the sink). */
const RING_MS = 500;
/**
 * How long a finished URL's path stays after its last frame left the ring: the sink's buffer
 * still plays it (a path removed at once would cut its end; a silent one costs nothing).
 */
export const TAIL_MS = 400;
/** Audio left in a URL's ring when the next URL's path is added (see `#run`). */
export const SWITCH_LEAD_MS = 0;

/** Audio in a decoded source's ring, ms. */
function leftMs(status: DecodedLike['status']): number {
  const rate = status.sample_rate ?? 0;
  return rate > 0 ? ((status.queued_frames ?? 0) / rate) * 1000 : Number.POSITIVE_INFINITY;
}

/** A URL opened, decoding, probed: ready to be switched to. */
interface Prepared {
  readonly index: number;
  readonly id: string;
  readonly opened: OpenedAudio;
  readonly source: DecodedLike;
  /** Settles when every byte was handed to the decoder (or reading failed). */
  readonly fed: Promise<void>;
}

export class Playback {
  readonly items: PlaybackItem[];
  readonly startedAt = new Date();
  readonly #deps: PlaybackDeps;
  readonly #abort = new AbortController();
  #first: { resolve: () => void; reject: (err: PlayUrlError) => void } | null = null;
  #ended: Promise<void> | null = null;
  #playing = -1;

  constructor(
    readonly id: string,
    readonly sink: string,
    urls: readonly URL[],
    deps: PlaybackDeps,
  ) {
    this.#deps = deps;
    this.items = urls.map((url) => ({ url: url.href, state: 'waiting', error: null, codec: null }));
  }

  /**
   * Starts playing; resolves once the first URL that can play plays, rejects with the error of
   * the last URL when none can. `ended` settles when the playback is over.
   */
  start(): Promise<void> {
    const first = new Promise<void>((resolve, reject) => {
      this.#first = { resolve, reject };
    });
    this.#ended = this.#run().catch((err: unknown) => {
      this.#deps.log.warn(`${this.#deps.plugin} ${this.id}: ${(err as Error).message}`);
    });
    return first;
  }

  /** Settles when the playback is over (every URL played, skipped or stopped). */
  get ended(): Promise<void> {
    return this.#ended ?? Promise.resolve();
  }

  /** Stops at once: the current URL's path goes, what was not played yet is marked stopped. */
  stop(): void {
    this.#abort.abort();
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  view(): PlaybackView {
    return {
      id: this.id,
      sink: this.sink,
      started_at: this.startedAt.toISOString(),
      playing: this.#playing >= 0 ? this.#playing : null,
      items: this.items.map((i) => ({ ...i })),
    };
  }

  async #run(): Promise<void> {
    const { temporary } = this.#deps;
    const signal = this.#abort.signal;
    const limit = this.#deps.limits.maxSeconds;
    const timer = limit > 0 ? setTimeout(() => this.stop(), limit * 1000) : null;
    let last: PlayUrlError = new PlayUrlError(422, 'url', 'nothing to play');
    let current: Prepared | null = null;
    let next: Promise<Prepared | null> | null = this.#prepare(0);
    try {
      while (next) {
        const ready = await next;
        next = null;
        if (!ready) {
          const index = this.items.findIndex((i) => i.state === 'waiting');
          const failed = this.items.filter((i) => i.state === 'skipped').at(-1);
          if (failed?.status) {
            last = new PlayUrlError(failed.status as PlayUrlStatus, 'url', failed.error ?? '');
          }
          if (index >= 0 && !signal.aborted) next = this.#prepare(index);
          continue;
        }
        if (signal.aborted) {
          this.#dispose(ready);
          break;
        }
        const label = labelOf(ready.opened.url);
        temporary.add(this.#deps.plugin, `${this.id}/${label}`, ready.id, this.sink);
        if (current) this.#retire(current);
        current = ready;
        this.#playing = ready.index;
        this.items[ready.index]!.state = 'playing';
        this.#first?.resolve();
        this.#deps.log.info(
          `${this.#deps.plugin} ${this.id}: playing ${ready.opened.url} on ${this.sink}`,
        );
        await ready.fed;
        if (ready.index + 1 < this.items.length && !signal.aborted) {
          next = this.#prepare(ready.index + 1);
        }
        // With a next URL, switch once this one's ring is empty: what it has left then is in
        // the sink's buffer, about as long as a new path takes to start (switching when it had
        // played out left 70 ms of silence; with 60 ms still in the ring, 60 ms overlapped).
        await this.#until(
          ready.source,
          (state, status) =>
            state === 'drained' ||
            state === 'failed' ||
            (next !== null && leftMs(status) <= SWITCH_LEAD_MS),
        );
      }
    } finally {
      if (timer) clearTimeout(timer);
      if (current) await this.#finish(current);
      this.#playing = -1;
      for (const item of this.items) if (item.state === 'waiting') item.state = 'stopped';
      this.#first?.reject(signal.aborted ? new PlayUrlError(409, 'url', 'stopped') : last);
    }
  }

  /** Opens URL `index`, starts decoding it and waits for the probe; null when it cannot play. */
  async #prepare(index: number): Promise<Prepared | null> {
    const item = this.items[index]!;
    item.state = 'opening';
    const { engine, limits } = this.#deps;
    let opened: OpenedAudio | null = null;
    const id = `${this.#deps.plugin}-${this.id}-${index}`;
    try {
      opened = await openUrl(new URL(item.url), limits, this.#abort.signal);
      const source = engine.addDecodedSource(id, {
        ringMs: RING_MS,
        ...(opened.hint ? { hint: opened.hint } : {}),
      });
      if (!source) throw new PlayUrlError(503, 'url', 'the audio engine is off');
      const fed = this.#feed(opened, source, item);
      const state = await this.#until(source, (s) => s !== 'probing', limits.readTimeoutMs);
      if (state !== 'playing' && state !== 'drained') {
        opened.close();
        engine.removeMemorySource(id);
        throw new PlayUrlError(
          state === 'probing' ? 504 : 422,
          'url',
          state === 'probing'
            ? `no audio found within ${limits.readTimeoutMs} ms`
            : (source.status.error ?? 'not audio'),
        );
      }
      item.codec = source.status.codec ?? null;
      return { index, id, opened, source, fed };
    } catch (err) {
      opened?.close();
      const e =
        err instanceof PlayUrlError ? err : new PlayUrlError(502, 'url', (err as Error).message);
      item.state = this.#abort.signal.aborted ? 'stopped' : 'skipped';
      item.error = e.message;
      item.status = e.status;
      if (!this.#abort.signal.aborted) {
        this.#deps.log.warn(`${this.#deps.plugin} ${this.id}: skipped ${item.url}: ${e.message}`);
      }
      return null;
    }
  }

  /** Hands the body to the decoder as it arrives, never more than it has room for. */
  async #feed(opened: OpenedAudio, source: DecodedLike, item: PlaybackItem): Promise<void> {
    try {
      for await (const chunk of opened.body) {
        if (this.#abort.signal.aborted) return;
        for (let at = 0; at < chunk.byteLength; at += PUSH_BYTES) {
          const piece = chunk.subarray(at, at + PUSH_BYTES);
          while (!source.push(piece)) {
            if (this.#abort.signal.aborted || source.status.state === 'failed') return;
            await sleep(POLL_MS);
          }
        }
      }
    } catch (err) {
      // The URL ends where its bytes stopped; what was decoded still plays.
      if (!this.#abort.signal.aborted) item.error = (err as Error).message;
    } finally {
      source.finish();
      opened.close();
    }
  }

  /** Waits until the decoder's state passes `done` (or stop, or `timeoutMs`); the last state. */
  async #until(
    source: DecodedLike,
    done: (state: DecodedLike['status']['state'], status: DecodedLike['status']) => boolean,
    timeoutMs = Number.POSITIVE_INFINITY,
  ): Promise<DecodedLike['status']['state']> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const status = source.status;
      if (done(status.state, status) || this.#abort.signal.aborted || Date.now() > until) {
        return status.state;
      }
      await sleep(POLL_MS);
    }
  }

  /**
   * Waits for a URL to be played out (unless stopped), marks it, and after the tail removes
   * its path, its source and its decoder.
   */
  async #finish(done: Prepared): Promise<void> {
    const state = await this.#until(done.source, (s) => s === 'drained' || s === 'failed');
    const item = this.items[done.index]!;
    if (state === 'failed') item.error = done.source.status.error ?? 'the decoder failed';
    item.state = this.#abort.signal.aborted ? 'stopped' : 'played';
    if (!this.#abort.signal.aborted) await sleep(TAIL_MS);
    this.#deps.temporary.remove(done.id);
    this.#deps.engine.removeMemorySource(done.id);
  }

  /** A URL switched away from finishes on its own (see `#finish`). */
  #retire(done: Prepared): void {
    this.#finish(done).catch((err: unknown) => {
      this.#deps.log.warn(`${this.#deps.plugin} ${this.id}: ${(err as Error).message}`);
    });
  }

  #dispose(ready: Prepared): void {
    ready.opened.close();
    this.#deps.engine.removeMemorySource(ready.id);
  }
}

/** The last segment of a URL's path (its file name), as a source's name shows it. */
function labelOf(url: string): string {
  const { pathname, host } = new URL(url);
  const last = pathname.split('/').filter(Boolean).at(-1) ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Shown as sent.
  }
  return (name.replaceAll('/', '_') || host).slice(0, 40);
}
