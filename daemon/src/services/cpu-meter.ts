// A CPU percentage from a cumulative CPU-seconds counter (the engine's, or one MP3 encoder's):
// the counter's growth over the wall-clock time since the last reading, recomputed at most
// every half second so that /api/stats polled quickly does not report noise.

/** Shortest window, in seconds, a percentage is computed over. */
export const CPU_WINDOW_S = 0.5;

export class CpuMeter {
  #at: number;
  #cpuS = 0;
  #percent = 0;

  /** Starts a window at `nowMs` with the counter at 0 (a new engine or encoder). */
  constructor(nowMs: number = performance.now()) {
    this.#at = nowMs;
  }

  /**
   * Reads the counter (`cpuS`, seconds since its start) and returns the percentage of one core
   * over the last full window: unchanged until `CPU_WINDOW_S` has passed, never below 0 (a
   * counter that restarted from 0 reads as 0 for one window).
   */
  percent(cpuS: number, nowMs: number = performance.now()): number {
    const elapsed = (nowMs - this.#at) / 1000;
    if (elapsed >= CPU_WINDOW_S) {
      this.#percent = Math.max(0, ((cpuS - this.#cpuS) / elapsed) * 100);
      this.#at = nowMs;
      this.#cpuS = cpuS;
    }
    return this.#percent;
  }
}
