// Lets the browser paint what React has just committed before work goes on: a status that the
// next one would replace within the same frame is otherwise never seen.

/** A hidden tab runs no animation frames; this long at most is waited there. */
const HIDDEN_TAB_WAIT_MS = 100;

/** Resolves once the next frame has been painted (the timer after a frame runs after its paint). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, HIDDEN_TAB_WAIT_MS);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
