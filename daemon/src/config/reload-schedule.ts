// When a hand-edited file is reloaded: CONFIGURATION_RELOAD_TIMEOUT after it last changed (its
// modification time), however late the daemon noticed (the watcher at once, the poll within
// POLL_MS). Noticing the same change again does not restart the wait; a newer change does.

/** How often files are checked when the watcher misses a change. */
export const POLL_MS = 250;

export class ReloadSchedule {
  readonly #timeoutMs: number;
  readonly #run: () => void;
  #timer: NodeJS.Timeout | null = null;
  #due = 0;

  /** `run` is called `timeoutMs` after the newest change reported to `changed`. */
  constructor(timeoutMs: number, run: () => void) {
    this.#timeoutMs = timeoutMs;
    this.#run = run;
  }

  /** A file changed at `changedAtMs` (epoch ms; a time in the future counts as now). */
  changed(changedAtMs: number, now = Date.now()): void {
    const due = Math.min(changedAtMs, now) + this.#timeoutMs;
    if (this.#timer && due <= this.#due) return;
    this.stop();
    this.#due = due;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#run();
      },
      Math.max(0, due - now),
    );
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
