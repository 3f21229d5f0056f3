// Every keyboard shortcut the UI guide documents, against a real daemon: media keys send through
// /sources/{name}/play|nexttrack|prevtrack, Up/Down and M change the active source's volume, `/`
// focuses the search, `?` lists them, Esc closes; keys stay with fields and focused controls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { SHORTCUTS } from '../src/lib/shortcuts';
import { stepGain } from '../src/lib/volume';
import { config, eventually, type Running, ready, start } from './harness/dashboard';

let run: Running;
let page: Page;
before(async () => {
  run = await start();
  await run.api('POST', '/sources', {
    name: 'PC',
    ip: '127.0.0.1',
    vnc_ip: '127.0.0.1',
    volume: 0.5,
  });
  await run.api('POST', '/sources', { name: 'Radio', ip: '127.0.0.9' });
  ({ page } = await run.open());
  await ready(page);
  await page.getByRole('button', { name: 'PC', exact: true }).click();
  await page
    .getByRole('region', { name: 'Active source' })
    .getByText('PC', { exact: true })
    .waitFor();
});
after(() => run?.close());

/** Presses `key` with the focus on the page itself, not on a control. */
async function press(key: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

const volumeOf = async (name: string) =>
  (await config(run)).sources.find((s) => s.name === name)!.volume;

const waitForVolume = (name: string, volume: number) => eventually(() => volumeOf(name), volume);

describe('keyboard shortcuts', () => {
  for (const [key, command] of [
    ['Space', 'play'],
    ['ArrowLeft', 'prevtrack'],
    ['ArrowRight', 'nexttrack'],
  ] as const) {
    test(`${key} sends ${command} to the active source's media host`, async () => {
      const request = page.waitForResponse((r) => r.url().endsWith(`/sources/PC/${command}`));
      await press(key);
      assert.equal((await request).status(), 200);
    });
  }

  test('Up and Down step the active source 2 dB; M mutes and unmutes to the same level', async () => {
    await press('ArrowUp');
    await waitForVolume('PC', stepGain(0.5, 1));
    await press('ArrowDown');
    await waitForVolume('PC', stepGain(stepGain(0.5, 1), -1));
    const level = await volumeOf('PC');
    await press('m');
    await waitForVolume('PC', 0);
    await page.getByRole('button', { name: 'Mute PC', pressed: true }).first().waitFor();
    await press('m');
    await waitForVolume('PC', level);
  });

  test('/ focuses the search; typed letters stay in the field (m does not mute)', async () => {
    const level = await volumeOf('PC');
    await press('/');
    const search = page.getByRole('searchbox', { name: 'Search sources, routes and sinks' });
    assert.ok(await search.evaluate((el) => el === document.activeElement));
    await page.keyboard.type('m');
    assert.equal(await search.inputValue(), 'm');
    const changes: string[] = [];
    const listener = (r: Request) => {
      if (r.method() !== 'GET' && r.url().includes('/sources/PC')) changes.push(r.url());
    };
    page.on('request', listener);
    await page.keyboard.press('ArrowUp');
    // Not a fixed sleep: a request the page starts after the key's handler ran is seen only after
    // any request the handler started, so a volume change would be in `changes` by then.
    const after = page.waitForRequest((r) => r.url().endsWith('/api/health?after-arrow'));
    await page.evaluate(() => fetch('/api/health?after-arrow'));
    await after;
    page.off('request', listener);
    assert.deepEqual(changes, []);
    assert.equal(await volumeOf('PC'), level);
    await search.fill('');
  });

  test('? lists exactly the documented shortcuts; Esc closes the list', async () => {
    await press('Shift+Slash');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    const keys = await dialog.locator('tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(keys, [...Object.values(SHORTCUTS).map((s) => s.label), 'Esc']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('a focused control keeps its keys: Space toggles a switch, not play', async () => {
    let played = false;
    const listener = (r: { url(): string }) => {
      if (r.url().endsWith('/sources/PC/play')) played = true;
    };
    page.on('request', listener);
    const pcLevel = await volumeOf('PC');
    const toggle = page.getByRole('switch', { name: 'Enable Radio' });
    await toggle.focus();
    await page.keyboard.press('Space');
    await page.getByRole('switch', { name: 'Enable Radio', checked: false }).waitFor();
    assert.equal((await config(run)).sources.find((s) => s.name === 'Radio')!.enabled, false);
    const slider = page.getByRole('slider', { name: 'Volume of Radio' });
    await slider.focus();
    await page.keyboard.press('ArrowDown');
    await waitForVolume('Radio', stepGain(1, -1));
    assert.equal(
      await volumeOf('PC'),
      pcLevel,
      'the arrow moved the slider, not the active source',
    );
    page.off('request', listener);
    assert.equal(played, false);
  });

  test('media keys on a source without a VNC host say why instead of sending', async () => {
    await page.getByRole('button', { name: 'Radio', exact: true }).click();
    let sent = false;
    const listener = (r: { url(): string }) => {
      if (/\/sources\/Radio\/(play|nexttrack|prevtrack)$/.test(r.url())) sent = true;
    };
    page.on('request', listener);
    await press('Space');
    // Exact: the toast's live region (role=status) repeats the text inside a longer one.
    await page.getByText('No media keys for this source', { exact: true }).waitFor();
    page.off('request', listener);
    assert.equal(sent, false);
    assert.equal(await page.getByRole('button', { name: 'Play or pause' }).count(), 0);
  });
});
