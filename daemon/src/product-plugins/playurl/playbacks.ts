// Every play-URL playback of the daemon (the playurl and playurlmultiple plugins share them):
// started by a play request, listed by GET /plugins/playurl/, stopped by DELETE or when over.
// The limits are config.yaml's `plugins.playurl` as it is when a play request arrives (a
// playback keeps those it started with). At most `max_playing` at once; each is forgotten once
// over (its outcome is in the log, whose lines are capped per minute).
import { randomBytes } from 'node:crypto';
import { lookup } from '../../config/model.js';
import type { PlaybackView } from '../../schema/plugins.js';
import { RateLimitedLog } from '../../services/discovery/log.js';
import type { PluginContext } from '../types.js';
import { PlayUrlError } from './errors.js';
import { PLAYURL_LOG_LINES_PER_MINUTE, type PlayUrlLimits, playUrlLimits } from './limits.js';
import { parsePlayUrl } from './open-url.js';
import { Playback } from './playback.js';

export interface PlaybacksOptions {
  /** PLAYURL_DIRECTORY: the only folder file: URLs may play from; null: none. */
  readonly directory?: string | null;
  /** The window of the log cap, ms (a minute; shorter in tests). */
  readonly logWindowMs?: number;
}

export class Playbacks {
  readonly #directory: string | null;
  readonly #logWindowMs: number;
  readonly #all = new Map<string, Playback>();
  #context: PluginContext | null = null;
  #log: RateLimitedLog | null = null;
  #played = 0;
  #skipped = 0;

  constructor(options: PlaybacksOptions = {}) {
    this.#directory = options.directory ?? null;
    this.#logWindowMs = options.logWindowMs ?? 60_000;
  }

  /** The host's context (set by the first of the two plugins to start). */
  attach(context: PluginContext): void {
    if (this.#context) return;
    this.#context = context;
    // Its summary line ("N more ... not logged") is a warning.
    this.#log = new RateLimitedLog(
      (m) => context.log.warn(`playurl: ${m}`),
      PLAYURL_LOG_LINES_PER_MINUTE,
      this.#logWindowMs,
    );
  }

  /** The limits a play request gets now: config.yaml's plugins.playurl and the directory. */
  limits(): PlayUrlLimits {
    const settings = this.#context?.config().plugins.playurl;
    if (!settings) throw new PlayUrlError(503, 'url', 'the play-URL plugin is not running');
    return playUrlLimits(settings, this.#directory);
  }

  /**
   * Plays `urls` in order on the sink or sink group `sinkKey`. Resolves with the playback once
   * its first playable URL plays; throws a PlayUrlError (with the field: `url`, `urls[i]` or
   * `sink`) when the request is bad or no URL can play.
   */
  async play(urls: readonly string[], sinkKey: string, field: string): Promise<Playback> {
    const context = this.#context;
    const log = this.#log;
    if (!context || !log) throw new PlayUrlError(503, field, 'the play-URL plugin is not running');
    const limits = this.limits();
    if (urls.length > limits.maxUrls) {
      throw new PlayUrlError(
        400,
        field,
        `${urls.length} URLs is more than plugins.playurl.max_urls (${limits.maxUrls})`,
      );
    }
    const parsed = urls.map((u, i) => {
      try {
        return parsePlayUrl(u);
      } catch (err) {
        const e = err as PlayUrlError;
        throw new PlayUrlError(e.status, urls.length > 1 ? `urls/${i}` : field, e.message);
      }
    });
    const sink = lookup(context.config(), 'sink', sinkKey).name;
    if (this.#all.size >= limits.maxPlaying) {
      throw new PlayUrlError(
        503,
        field,
        `${this.#all.size} playbacks already play (plugins.playurl.max_playing); stop one first`,
      );
    }
    const id = randomBytes(6).toString('hex');
    const playback = new Playback(id, sink, parsed, {
      engine: context.engine,
      temporary: context.temporary,
      limits,
      plugin: 'playurl',
      log: {
        info: (m) => log.write(m, Date.now(), (line) => context.log.info(line)),
        warn: (m) => log.write(m, Date.now(), (line) => context.log.warn(line)),
      },
    });
    this.#all.set(id, playback);
    try {
      await playback.start();
    } catch (err) {
      this.#forget(id, playback);
      throw err;
    }
    this.#played++;
    void playback.ended.then(() => this.#forget(id, playback));
    return playback;
  }

  list(): PlaybackView[] {
    return [...this.#all.values()].map((p) => p.view());
  }

  /** Stops the playback `id`; its view, or null when there is none. */
  stop(id: string): PlaybackView | null {
    const playback = this.#all.get(id);
    if (!playback) return null;
    playback.stop();
    return playback.view();
  }

  /** Stops every playback and waits for them to be over (shutdown). */
  async stopAll(): Promise<void> {
    const all = [...this.#all.values()];
    for (const p of all) p.stop();
    await Promise.all(all.map((p) => p.ended));
  }

  stats(): { playing: number; played: number; skipped: number; log_suppressed: number } {
    return {
      playing: this.#all.size,
      played: this.#played,
      skipped: this.#skipped,
      log_suppressed: this.#log?.suppressed ?? 0,
    };
  }

  #forget(id: string, playback: Playback): void {
    if (this.#all.get(id) !== playback) return;
    this.#all.delete(id);
    this.#skipped += playback.items.filter((i) => i.state === 'skipped').length;
  }
}
