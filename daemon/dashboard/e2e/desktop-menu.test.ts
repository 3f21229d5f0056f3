// /site/DesktopMenu: the compact page the Windows app shows. Volumes, enable switches and media
// controls act through the API like the dashboard's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { config, eventually, type Running, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 });
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1', vnc_ip: '127.0.0.1' });
  await run.api('POST', '/sources', { name: 'TV', ip: '127.0.0.2' });
});
after(() => run?.close());

describe('/site/DesktopMenu', () => {
  test('sinks and sources with volume, enable and (with a VNC host) media controls', async () => {
    const { page, context, errors } = await run.open('/site/DesktopMenu', {
      width: 360,
      height: 560,
    });
    await page.getByRole('heading', { name: 'Sinks' }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Add Source' }).count(),
      0,
      'compact: no editing',
    );
    await page.getByRole('switch', { name: 'Enable Kitchen' }).click();
    await page.getByRole('switch', { name: 'Enable Kitchen', checked: false }).waitFor();
    await eventually(async () => (await config(run)).sinks[0]!.enabled, false);

    const slider = page.getByRole('slider', { name: 'Volume of TV' });
    await slider.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() =>
      document
        .querySelector('[aria-label="Volume of TV"]')
        ?.getAttribute('aria-valuetext')
        ?.includes('−4.0 dB'),
    );
    await eventually(async () => (await config(run)).sources[1]!.volume, 0.631);

    const next = page.waitForResponse((r) => r.url().endsWith('/sources/PC/nexttrack'));
    await page.getByRole('button', { name: 'Next track on PC' }).click();
    assert.equal((await next).status(), 200);
    assert.equal(await page.getByRole('button', { name: /track on TV/ }).count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `scrolls sideways by ${overflow} px`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('any other path is a page-not-found, not the API', async () => {
    const { page, context } = await run.open('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await context.close();
  });
});
