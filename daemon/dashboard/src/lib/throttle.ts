/** A function that runs at once, then at most every `ms` with the latest value; `flush` sends now. */
export interface Throttled<T> {
  (value: T): void;
  /** Sends `value` now (the last value of a drag), cancelling a pending one. */
  flush(value: T): void;
  cancel(): void;
}

export function throttle<T>(run: (value: T) => void, ms: number): Throttled<T> {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: { value: T } | null = null;
  const fire = (value: T) => {
    last = Date.now();
    pending = null;
    run(value);
  };
  const throttled = ((value: T) => {
    const wait = last + ms - Date.now();
    if (wait <= 0 && timer === null) return fire(value);
    pending = { value };
    timer ??= setTimeout(
      () => {
        timer = null;
        if (pending) fire(pending.value);
      },
      Math.max(wait, 0),
    );
  }) as Throttled<T>;
  throttled.flush = (value: T) => {
    if (timer) clearTimeout(timer);
    timer = null;
    fire(value);
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return throttled;
}
