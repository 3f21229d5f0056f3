// Every play-URL playback of the daemon (the playurl and playurlmultiple plugins share them):
// started by a play request, listed by GET /plugins/playurl/, stopped by DELETE or when over.
// At most `maxPlaying` at once; each is forgotten once over (its outcome is in the log).
import { randomBytes } from 'node:crypto';
import { lookup } from '../../config/model.js';
import type { PlaybackView } from '../../schema/plugins.js';
import type { PluginContext } from '../types.js';
import { PlayUrlError } from './errors.js';
import type { PlayUrlLimits } from './limits.js';
import { parsePlayUrl } from './open-url.js';
import { Playback } from './playback.js';

export class Playbacks {
  readonly limits: PlayUrlLimits;
  readonly #all = new Map<string, Playback>();
  #context: PluginContext | null = null;
  #played = 0;
  #skipped = 0;

  constructor(limits: PlayUrlLimits) {
    this.limits = limits;
  }

  /** The host's context (set by the first of the two plugins to start). */
  attach(context: PluginContext): void {
    this.#context ??= context;
  }

  /**
   * Plays `urls` in order on the sink or sink group `sinkKey`. Resolves with the playback once
   * its first playable URL plays; throws a PlayUrlError (with the field: `url`, `urls[i]` or
   * `sink`) when the request is bad or no URL can play.
   */
  async play(urls: readonly string[], sinkKey: string, field: string): Promise<Playback> {
    const context = this.#context;
    if (!context) throw new PlayUrlError(503, field, 'the play-URL plugin is not running');
    const parsed = urls.map((u, i) => {
      try {
        return parsePlayUrl(u);
      } catch (err) {
        const e = err as PlayUrlError;
        throw new PlayUrlError(e.status, urls.length > 1 ? `urls/${i}` : field, e.message);
      }
    });
    const sink = lookup(context.config(), 'sink', sinkKey).name;
    if (this.#all.size >= this.limits.maxPlaying) {
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
      limits: this.limits,
      plugin: 'playurl',
      log: context.log,
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

  stats(): { playing: number; played: number; skipped: number } {
    return { playing: this.#all.size, played: this.#played, skipped: this.#skipped };
  }

  #forget(id: string, playback: Playback): void {
    if (this.#all.get(id) !== playback) return;
    this.#all.delete(id);
    this.#skipped += playback.items.filter((i) => i.state === 'skipped').length;
  }
}
