// One sink's MP3 stream and its listeners. The engine encodes once per sink (started by the
// first listener, stopped when the last leaves); every listener gets the same frames. A new
// listener first gets the last second of frames, so players start at once; a listener whose
// connection cannot take the stream (10 s queued in the daemon) is dropped, never waited for.
import type { ServerResponse } from 'node:http';
import { CpuMeter } from '../services/cpu-meter.js';

/** The engine side of a stream (`engine.listenMp3`'s handle). */
export interface EncoderHandle {
  close(): void;
  stats(): { cpu_s: number; overruns: number; filled_s: number; sample_rate: number };
}

/** Opens the engine's encoder of this sink; frames arrive through `onFrames`. */
export type OpenEncoder = (onFrames: (frames: Buffer) => void) => EncoderHandle;

export interface HubOptions {
  readonly bitrateKbps: number;
  readonly maxListeners: number;
  /** Seconds of frames a new listener gets first (default 1). */
  readonly backlogS?: number;
  /** Seconds queued for one listener after which it is dropped (default 10). */
  readonly maxLagS?: number;
  /**
   * Bytes queued for `res` beyond its own buffer (the kernel's send queue, which holds
   * megabytes before Node's grows); 0 when unknown.
   */
  readonly kernelQueued?: (res: ServerResponse) => number;
}

/** Why a listener could not be added. */
export class HubFull extends Error {}

export interface HubStats {
  listeners: number;
  /** Listeners dropped because they fell too far behind. */
  dropped_listeners: number;
  bytes_sent: number;
  /** Encoder CPU, percent of one core, over the last measurement; null with no encoder. */
  encoder_cpu_percent: number | null;
  encoder_overruns: number;
  /** Seconds of silence the encoder made up while the sink did not render. */
  encoder_filled_s: number;
  sample_rate: number | null;
}

export class Mp3Hub {
  readonly #open: OpenEncoder;
  readonly #options: Required<HubOptions>;
  readonly #listeners = new Set<ServerResponse>();
  #encoder: EncoderHandle | null = null;
  #backlog: Buffer[] = [];
  #backlogBytes = 0;
  #dropped = 0;
  #sent = 0;
  #cpu = new CpuMeter();
  #last: Omit<HubStats, 'listeners' | 'dropped_listeners' | 'bytes_sent'> = {
    encoder_cpu_percent: null,
    encoder_overruns: 0,
    encoder_filled_s: 0,
    sample_rate: null,
  };

  constructor(open: OpenEncoder, options: HubOptions) {
    this.#open = open;
    this.#options = { backlogS: 1, maxLagS: 10, kernelQueued: () => 0, ...options };
  }

  get bitrateKbps(): number {
    return this.#options.bitrateKbps;
  }

  get listeners(): number {
    return this.#listeners.size;
  }

  /** Bytes of one second of the stream. */
  get #bytesPerSecond(): number {
    return (this.#options.bitrateKbps * 1000) / 8;
  }

  /**
   * Makes room for one more listener, to `add` at once: throws HubFull at the cap, or what the
   * engine says when the encoder cannot start (it is started here for the first listener).
   */
  admit(): void {
    if (this.#listeners.size >= this.#options.maxListeners) {
      throw new HubFull(`the stream has its maximum of ${this.#options.maxListeners} listeners`);
    }
    if (!this.#encoder) {
      this.#encoder = this.#open((frames) => this.#deliver(frames));
      this.#cpu = new CpuMeter();
    }
  }

  /** Adds a listener whose headers are sent (after `admit`): the backlog, then every frame. */
  add(res: ServerResponse): void {
    this.admit();
    this.#listeners.add(res);
    const leave = () => this.remove(res);
    res.once('close', leave);
    res.once('error', leave);
    if (this.#backlog.length > 0) this.#write(res, Buffer.concat(this.#backlog));
  }

  /** Removes a listener (its connection closed); the last one stops the encoder. */
  remove(res: ServerResponse): void {
    if (!this.#listeners.delete(res)) return;
    if (this.#listeners.size === 0) this.#stopEncoder();
  }

  /** Ends every listener's response and stops the encoder (sink gone, daemon closing). */
  close(): void {
    for (const res of [...this.#listeners]) {
      this.#listeners.delete(res);
      res.end();
    }
    this.#stopEncoder();
  }

  stats(): HubStats {
    const e = this.#encoder;
    if (e) {
      const s = e.stats();
      this.#last = {
        encoder_cpu_percent: this.#cpu.percent(s.cpu_s),
        encoder_overruns: s.overruns,
        encoder_filled_s: s.filled_s,
        sample_rate: s.sample_rate,
      };
    }
    return {
      listeners: this.#listeners.size,
      dropped_listeners: this.#dropped,
      bytes_sent: this.#sent,
      ...this.#last,
      ...(e ? {} : { encoder_cpu_percent: null }),
    };
  }

  #stopEncoder(): void {
    this.#encoder?.close();
    this.#encoder = null;
    this.#backlog = [];
    this.#backlogBytes = 0;
  }

  #deliver(frames: Buffer): void {
    if (!this.#encoder) return; // frames already queued when the encoder stopped
    this.#backlog.push(frames);
    this.#backlogBytes += frames.length;
    const keep = this.#bytesPerSecond * this.#options.backlogS;
    while (this.#backlog.length > 1 && this.#backlogBytes - this.#backlog[0]!.length >= keep) {
      this.#backlogBytes -= this.#backlog.shift()!.length;
    }
    for (const res of this.#listeners) this.#write(res, frames);
  }

  #write(res: ServerResponse, frames: Buffer): void {
    const queued = res.writableLength + this.#options.kernelQueued(res);
    if (queued > this.#bytesPerSecond * this.#options.maxLagS) {
      this.#dropped++;
      this.#listeners.delete(res);
      res.destroy();
      if (this.#listeners.size === 0) this.#stopEncoder();
      return;
    }
    this.#sent += frames.length;
    res.write(frames);
  }
}
