// Live levels from the engine: a sink card's meter, the active source's meter and the visualizer
// (of a sink or of the active source) move for a routed tone and fall flat for silence, all on one
// /ws/levels socket; H cycles the visualizer's styles; clicking it fills the screen and Esc
// leaves. Real daemon, real engine, Scream packets on loopback, Debian's Chromium.
import assert from 'node:assert/strict';
import type { Socket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { receivers, sendScream } from './harness/audio';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
let sinks: Socket[];
let screamPort: number;
before(async () => {
  run = await start();
  sinks = await receivers(1);
  await run.api('POST', '/sinks', {
    name: 'Kitchen',
    ip: '127.0.0.1',
    port: sinks[0]!.address().port,
  });
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
  await run.api('POST', '/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' });
  const stats = await run.api('GET', '/api/stats');
  screamPort = (stats.body as { engine: { ports: { scream: number[] } } }).engine.ports.scream[0]!;
});
after(async () => {
  for (const s of sinks ?? []) s.close();
  await run?.close();
});

/** Rows of the visualizer's canvas with anything drawn: a flat line is a few, a tone many. */
function drawnRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="visualizer-canvas"]');
    const g = canvas?.getContext('2d');
    if (!canvas || !g) return -1;
    const { data, width, height } = g.getImageData(0, 0, canvas.width, canvas.height);
    let rows = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (data[(y * width + x) * 4 + 3]! > 0) {
          rows++;
          break;
        }
      }
    }
    return rows;
  });
}

async function until(what: string, check: () => Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A meter and the visualizer (its canvas and readout) read silence, then the harness's tone
 * (440 Hz at 6000/32767 of full scale, -14.7 dBFS) while it plays, then silence again. */
async function followTheTone(page: Page, meter: Locator, readout: RegExp) {
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await meter.getAttribute('aria-valuetext'), 'silent');
  const flat = await drawnRows(page);
  assert.ok(flat > 0 && flat <= 6, `silence drew ${flat} rows`);

  const stop = await sendScream(screamPort, ['127.0.0.1']);
  try {
    await until('the tone on the meter', async () =>
      /^-14\.[5-9] dB$/.test((await meter.getAttribute('aria-valuetext')) ?? ''),
    );
    const peak = Number(await meter.getAttribute('data-peak'));
    assert.ok(Math.abs(peak - 6000 / 32767) < 0.01, `peak ${peak}`);
    await until('the waveform moving', async () => (await drawnRows(page)) > 12);
    await page.locator('.visualizer').getByText(readout).waitFor();
  } finally {
    stop();
  }
  await until(
    'silence on the meter',
    async () => (await meter.getAttribute('aria-valuetext')) === 'silent',
  );
  await until('the waveform flat again', async () => (await drawnRows(page)) <= 6);
}

/** A group's meter reads silence, then the harness's tone sent to PC while it plays (`during`
 * runs then), then silence again. */
async function groupMeterFollowsTheTone(meter: Locator, during?: () => Promise<void>) {
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await meter.getAttribute('aria-valuetext'), 'silent');
  const stop = await sendScream(screamPort, ['127.0.0.1']);
  try {
    await until("the member's tone on the group meter", async () =>
      /^-14\.[5-9] dB$/.test((await meter.getAttribute('aria-valuetext')) ?? ''),
    );
    const peak = Number(await meter.getAttribute('data-peak'));
    assert.ok(Math.abs(peak - 6000 / 32767) < 0.01, `peak ${peak}`);
    await during?.();
  } finally {
    stop();
  }
  await until(
    'silence on the group meter',
    async () => (await meter.getAttribute('aria-valuetext')) === 'silent',
  );
}

describe('levels', () => {
  test("the sink's meter and the visualizer move for a routed tone and stay flat for silence", async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    const meter = page.getByRole('meter', { name: 'Level sent to Kitchen' });
    await meter.waitFor();
    await page.locator('[data-testid="visualizer-canvas"]').waitFor();
    await followTheTone(page, meter, /Kitchen: -14\.\d dB · -14\.\d dB/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("the active source's meter and its visualizer move for a tone and stay flat for silence", async () => {
    const { page, context, errors } = await run.open();
    // Every meter, the active source and the visualizer share one /ws/levels socket, whose
    // levels come as binary frames (decoded by the page).
    const levelSockets: string[] = [];
    let binaryFrames = 0;
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/ws/levels')) return;
      levelSockets.push(ws.url());
      ws.on('framereceived', (f) => {
        if (typeof f.payload !== 'string') binaryFrames += 1;
      });
    });
    await page.reload();
    await ready(page);
    const active = page.getByRole('region', { name: 'Active source' });
    const meter = active.getByRole('meter', { name: 'Level of PC' });
    await meter.waitFor();
    await page
      .getByLabel('What the visualizer shows')
      .selectOption({ label: 'PC (active source)' });
    await page.getByRole('button', { name: /of what PC sends: fullscreen/ }).waitFor();
    await followTheTone(page, meter, /PC: -14\.\d dB · -14\.\d dB/);
    await page.getByRole('meter', { name: 'Level sent to Kitchen' }).waitFor();
    assert.deepEqual(levelSockets, [levelSockets[0]]);
    assert.match(levelSockets[0]!, /\/ws\/levels\?mode=subscribe&encoding=binary$/);
    assert.ok(binaryFrames > 10, `${binaryFrames} binary frames`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('H cycles waveform, spectrum and bars; a click fills the screen and Esc leaves; Hide stops it', async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    const section = page.locator('section.visualizer');
    await page.locator('[data-testid="visualizer-canvas"]').waitFor();
    assert.equal(await section.getAttribute('data-style'), 'waveform');
    for (const style of ['spectrum', 'bars', 'waveform']) {
      await page.keyboard.press('h');
      assert.equal(await section.getAttribute('data-style'), style);
    }
    // Not while typing in the search field.
    await page.getByRole('searchbox').fill('h');
    assert.equal(await section.getAttribute('data-style'), 'waveform');
    await page.getByRole('searchbox').fill('');
    await page.locator('main').click({ position: { x: 5, y: 5 } });

    await page.getByRole('button', { name: /of what Kitchen plays: fullscreen/ }).click();
    await until('fullscreen', async () => (await section.getAttribute('data-fullscreen')) !== null);
    const box = await section.boundingBox();
    assert.ok(box && box.height >= 790 && box.width >= 1270, JSON.stringify(box));
    await page.keyboard.press('Escape');
    await until(
      'fullscreen left',
      async () => (await section.getAttribute('data-fullscreen')) === null,
    );

    await page.getByRole('button', { name: 'Hide' }).click();
    assert.equal(await page.locator('[data-testid="visualizer-canvas"]').count(), 0);
    // Remembered across a reload.
    await page.reload();
    await ready(page);
    await page.getByRole('button', { name: 'Show' }).waitFor();
    assert.equal(await page.locator('[data-testid="visualizer-canvas"]').count(), 0);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('[data-testid="visualizer-canvas"]').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a source group's card meters its members: the tone from one member moves it, silence stills it", async () => {
    await run.api('POST', '/sources', { name: 'Radio', ip: '127.0.0.3' });
    await run.api('POST', '/sources', {
      name: 'Both',
      is_group: true,
      group_members: ['PC', 'Radio'],
    });
    try {
      const { page, context, errors } = await run.open();
      await ready(page);
      // Radio (silent, unrouted) is the active source: no other meter on the page reads PC.
      await page
        .getByRole('article', { name: 'Radio' })
        .getByRole('button', { name: 'Radio', exact: true })
        .click();
      const card = page.getByRole('article', { name: 'Both' });
      const meter = card.getByRole('meter', { name: 'Level of Both' });
      await meter.waitFor();
      await groupMeterFollowsTheTone(meter, async () => {
        // Made the active source, the strip meters the group the same way.
        await card.getByRole('button', { name: 'Both', exact: true }).click();
        const strip = page.getByRole('region', { name: 'Active source' });
        const stripMeter = strip.getByRole('meter', { name: 'Level of Both' });
        await until('the tone on the active strip', async () =>
          /^-14\.[5-9] dB$/.test((await stripMeter.getAttribute('aria-valuetext')) ?? ''),
        );
      });
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await run.api('DELETE', '/sources/Both');
      await run.api('DELETE', '/sources/Radio');
    }
  });

  test("a sink group's card meters its loudest member: a tone sent to one member moves it", async () => {
    const extra = await receivers(1);
    await run.api('POST', '/sinks', {
      name: 'Den',
      ip: '127.0.0.1',
      port: extra[0]!.address().port,
    });
    await run.api('POST', '/sinks', {
      name: 'Downstairs',
      is_group: true,
      group_members: ['Kitchen', 'Den'],
    });
    try {
      const { page, context, errors } = await run.open();
      await ready(page);
      const card = page.getByRole('article', { name: 'Downstairs' });
      const meter = card.getByRole('meter', { name: 'Level sent to Downstairs' });
      await meter.waitFor();
      // PC plays to Kitchen only; Den (a member with no route) stays silent.
      await groupMeterFollowsTheTone(meter);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await run.api('DELETE', '/sinks/Downstairs');
      await run.api('DELETE', '/sinks/Den');
      for (const s of extra) s.close();
    }
  });
});
