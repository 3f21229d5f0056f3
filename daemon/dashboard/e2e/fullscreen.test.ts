// The fullscreen visualizer fills the screen and its controls stay reachable (issue 31, finding 5:
// the canvas stayed a ~100 px strip and "Leave fullscreen" covered the style and Hide buttons).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 });
});
after(() => run?.close());

describe('fullscreen visualizer', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${size.width}x${size.height} the canvas fills the screen and every control is clickable`, async () => {
      const { page, context, errors } = await run.open('/', size);
      await ready(page);
      const canvas = page.locator('[data-testid="visualizer-canvas"]');
      await canvas.waitFor();
      await page.getByRole('button', { name: /of what Kitchen plays: fullscreen/ }).click();
      await page.locator('section.visualizer[data-fullscreen]').waitFor();
      await page.getByRole('button', { name: 'Leave fullscreen (Esc)' }).waitFor();
      const box = (await canvas.boundingBox())!;
      const screen = await page.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));
      assert.ok(box.width >= screen.w * 0.95, `canvas ${box.width} of ${screen.w} px wide`);
      assert.ok(box.height >= screen.h * 0.7, `canvas ${box.height} of ${screen.h} px tall`);
      // Each control is what a click at its centre reaches (nothing lies over it).
      for (const name of [/^Style:/, 'Hide', 'Leave fullscreen (Esc)']) {
        const control = page.getByRole('button', { name });
        const hit = await control.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.width > 0 && (top === el || el.contains(top));
        });
        assert.ok(hit, `${name} is covered`);
      }
      const select = page.getByLabel('What the visualizer shows');
      assert.ok(await select.isVisible(), 'the sink choice is reachable');
      await page.keyboard.press('Escape');
      await page.locator('section.visualizer[data-fullscreen]').waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
