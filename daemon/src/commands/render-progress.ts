// The progress line `tributary render` draws on a terminal.

export interface Progress {
  /** Seconds of audio processed and in total. */
  done: number;
  total: number;
  /** Wall-clock seconds so far. */
  elapsed: number;
}

const WIDTH = 30;

/** One line: a bar, the percentage, audio seconds and speed in x realtime. */
export function progressLine(p: Progress): string {
  const fraction = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
  const filled = Math.round(fraction * WIDTH);
  const speed = p.elapsed > 0 ? `${Math.round(p.done / p.elapsed)}x realtime` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${p.done.toFixed(1)} / ${p.total.toFixed(1)} s  ${speed}`;
}

/** Redraws the line at most every 100 ms on a TTY stream; does nothing elsewhere. */
export class ProgressBar {
  private last = 0;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream & { isTTY?: boolean }) {}

  get active(): boolean {
    return this.stream.isTTY === true;
  }

  update(p: Progress, force = false): void {
    if (!this.active) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.stream.write(`\r${progressLine(p)}\u001b[K`);
    this.drawn = true;
  }

  /** Ends the line (so the next output starts on a fresh line). */
  finish(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
