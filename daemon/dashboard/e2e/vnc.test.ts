// The VNC button and viewer against a real VNC server (TigerVNC's Xvnc, its desktop painted red):
// the button opens the source's desktop in a new tab, noVNC connects through the daemon's bridge
// and draws the remote screen; the viewer's key buttons (and keys typed on the desktop) arrive at
// that X server as key events (xev on its root window); a source without a VNC host has no button
// and no desktop; an unreachable host, or one that is not a VNC server, is shown with the reason
// the daemon's bridge gave.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type KeyWatch,
  startXvnc,
  watchKeys,
  type Xvnc,
  xevMissing,
  xvncMissing,
} from '../../test/vnc/xvnc';
import { openDetails, type Running, ready, start } from './harness/dashboard';

const missing = xvncMissing();
const keysMissing = missing ?? xevMissing();

/** The key events X delivered, as `press NAME` / `release NAME`, with `/STATE` when a modifier
 * was held (0x4 Control, 0x8 Alt). */
const seen = (keys: KeyWatch) =>
  keys.events.map((e) => `${e.type} ${e.name}${e.state ? `/0x${e.state.toString(16)}` : ''}`);

async function until(what: string, check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
let run: Running;
let xvnc: Xvnc | null = null;

before(async () => {
  run = await start();
  if (!missing) xvnc = await startXvnc(320, 200, 'rgb:ff/00/00');
  await run.api('POST', '/sources', {
    name: 'Studio PC',
    ip: '127.0.0.1',
    vnc_ip: '127.0.0.1',
    vnc_port: xvnc?.port ?? 5900,
  });
  await run.api('POST', '/sources', { name: 'Radio', ip: '127.0.0.2' });
});
after(async () => {
  await xvnc?.stop();
  await run?.close();
});

describe('vnc', () => {
  test("the VNC button opens the source's desktop, drawn by noVNC through the bridge", {
    skip: missing ?? false,
  }, async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    const radio = page.getByRole('article', { name: 'Radio' });
    await radio.waitFor();
    // The card's VNC link is in its Details.
    await openDetails(page, 'Radio');
    await openDetails(page, 'Studio PC');
    assert.equal(await radio.getByRole('link', { name: /VNC/ }).count(), 0);
    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'VNC: desktop of Studio PC (new tab)' }).click(),
    ]);
    viewer.on('pageerror', (e) => errors.push(`viewer: ${e.message}`));
    await viewer.getByRole('status').getByText('Connected').waitFor({ timeout: 15_000 });
    assert.match(viewer.url(), /\/vnc\/Studio%20PC$/);
    await viewer.getByRole('heading', { name: /Studio PC 127\.0\.0\.1:\d+/ }).waitFor();
    // The remote desktop: 320x200, red, as Xvnc serves it.
    const screen = await viewer.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="vnc-screen"] canvas');
      if (canvas?.width !== 320) return null;
      const [r, g, b] = canvas.getContext('2d')!.getImageData(160, 100, 1, 1).data;
      return r === 255 && g === 0 && b === 0 ? { w: canvas.width, h: canvas.height } : null;
    });
    assert.deepEqual(await screen.jsonValue(), { w: 320, h: 200 });
    for (const name of [
      'Play/Pause (Space)',
      'Previous (←)',
      'Next (→)',
      'Ctrl+Alt+Del',
      'Alt+F4',
    ]) {
      const button = viewer.getByRole('button', { name });
      assert.ok(await button.isEnabled(), name);
      await button.click();
    }
    // Still connected after sending them.
    await viewer.getByRole('status').getByText('Connected').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("the viewer's keys reach the remote X server: Space, Left, Right, Ctrl+Alt+Del, Alt+F4, typed keys; F11 stays the viewer's", {
    skip: keysMissing ?? false,
  }, async () => {
    const keys = await watchKeys(xvnc!.display);
    try {
      const { page, context, errors } = await run.open('/vnc/Studio%20PC');
      await page.getByRole('status').getByText('Connected').waitFor({ timeout: 15_000 });
      // Keys typed while the desktop has the focus go to the remote computer too (and, since
      // xev says nothing until the first event, this also waits until it watches).
      await page.locator('[data-testid="vnc-screen"] canvas').click();
      const typed = () => keys.events.some((e) => e.type === 'release' && e.name === 'z');
      for (let tries = 0; !typed(); tries++) {
        if (tries === 30) assert.fail(`no typed key reached the X server: ${seen(keys)}`);
        await page.keyboard.press('z');
        await new Promise((r) => setTimeout(r, 300));
      }
      keys.events.length = 0;
      const expected: [string, string[]][] = [
        ['Play/Pause (Space)', ['press space', 'release space']],
        ['Previous (←)', ['press Left', 'release Left']],
        ['Next (→)', ['press Right', 'release Right']],
        [
          'Ctrl+Alt+Del',
          [
            'press Control_L',
            'press Alt_L/0x4',
            'press Delete/0xc',
            'release Delete/0xc',
            'release Alt_L/0xc',
            'release Control_L/0x4',
          ],
        ],
        ['Alt+F4', ['press Alt_L', 'press F4/0x8', 'release F4/0x8', 'release Alt_L/0x8']],
      ];
      // Not a fixed sleep before "nothing more came": after each button, a sentinel key through
      // the same path (Space, or Left after the Space button); the X server gets it after
      // anything the button sent, so once it has arrived, everything before it is the button's.
      for (const [button, events] of expected) {
        const [sentinel, key] =
          button === 'Play/Pause (Space)'
            ? ['Previous (←)', 'Left']
            : ['Play/Pause (Space)', 'space'];
        await page.getByRole('button', { name: button }).click();
        await page.getByRole('button', { name: sentinel }).click();
        await until(`${button}, then ${sentinel}, on the X server`, () =>
          seen(keys).includes(`release ${key}`),
        );
        assert.deepEqual(seen(keys), [...events, `press ${key}`, `release ${key}`], button);
        keys.events.length = 0;
      }
      // F11 is the viewer's own fullscreen: the page fills the screen, the remote gets no key.
      await page.getByRole('button', { name: 'Fullscreen (F11)' }).click();
      await page.waitForFunction(() => document.fullscreenElement !== null);
      // Not a fixed sleep: a key sent after F11 reaches the server after anything F11 sent.
      await page.getByRole('button', { name: 'Previous (←)' }).click();
      await until('Previous after F11 on the X server', () => keys.events.length >= 2);
      assert.deepEqual(seen(keys), ['press Left', 'release Left']);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      keys.stop();
    }
  });

  test('a source without a VNC host has no desktop; an unreachable one, or one that is no VNC server, says why and what to check', async () => {
    const { page, context } = await run.open('/vnc/Radio');
    await page
      .getByText('Radio has no VNC host: set its vnc_ip in the dashboard (Edit).')
      .waitFor();
    await page.goto('/vnc/Nobody');
    await page.getByText('There is no source named Nobody.').waitFor();
    await run.api('PUT', '/sources/Radio', { vnc_ip: '127.0.0.1', vnc_port: 1 });
    await page.goto('/vnc/Radio');
    await page
      .getByRole('status')
      .getByText(
        'The connection to the desktop failed: cannot reach 127.0.0.1:1: connect ECONNREFUSED ' +
          '127.0.0.1:1. Check that a VNC server runs on 127.0.0.1:1 and that this server can reach it.',
        { exact: true },
      )
      .waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Reconnect' }).waitFor();
    // Not a VNC server (the daemon's own HTTPS port says nothing until asked): the bridge relays
    // nothing and closes after 5 s, and the viewer says why.
    const apiPort = Number(new URL(run.daemon.apiUrl).port);
    await run.api('PUT', '/sources/Radio', { vnc_port: apiPort });
    await page.goto('/vnc/Radio');
    await page
      .getByRole('status')
      .getByText(
        `The desktop could not be opened: 127.0.0.1:${apiPort} sent no VNC greeting within 5 s: ` +
          'is it a VNC server? Check the VNC host and port of Radio (Edit): this server connects ' +
          'only to a VNC server.',
        { exact: true },
      )
      .waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Reconnect' }).waitFor();
    await context.close();
  });
});
