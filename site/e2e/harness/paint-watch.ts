// What a reader actually saw: before every frame the page paints, from its first one on, the
// text of the visible elements matching a selector is noted, so a test can tell a status that
// was painted from one that React replaced before any frame showed it.
import type { Page } from 'playwright-core';

export interface PaintedTexts {
  /** Frames watched (a watch that never ran cannot pass). */
  frames: number;
  /** The texts seen, in order, each repeat of the previous one dropped. */
  texts: string[];
}

/** Starts watching on every document the page loads from now on. */
export async function watchPaintedTexts(page: Page, selector: string): Promise<void> {
  // A string, not a function: tsx would wrap a function's inner closures in a helper the page
  // lacks.
  await page.addInitScript(`(() => {
    const seen = { frames: 0, texts: [] };
    window.__paintedTexts = seen;
    const frame = () => {
      seen.frames++;
      const visible = [...document.querySelectorAll(${JSON.stringify(selector)})]
        .filter((e) => e.checkVisibility())
        .map((e) => e.textContent.trim());
      const text = visible.join(' | ');
      if (text !== '' && text !== seen.texts.at(-1)) seen.texts.push(text);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
}

/**
 * What was painted so far, read after two more frames: a text Playwright has just seen in the
 * DOM is recorded by the watcher's next frame, not before (reading at once raced it).
 */
export function paintedTexts(page: Page): Promise<PaintedTexts> {
  return page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
    return (window as unknown as { __paintedTexts: PaintedTexts }).__paintedTexts;
  });
}
