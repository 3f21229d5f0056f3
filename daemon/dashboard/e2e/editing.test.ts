// Creating, editing and deleting through the dashboard against a real daemon: what the UI does
// is what GET /api/config then says; the API's refusals appear where the user acted.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import { config, type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
});
after(() => run?.close());

describe('editing from the dashboard', () => {
  test('a Scream source, an RTP source, a sink and a route made in the UI are in GET /api/config', async () => {
    const { page, errors, context } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Add Source' }).click();
    await page.getByRole('menuitem', { name: 'Scream Source' }).click();
    const scream = page.getByRole('dialog', { name: 'Add Scream Source' });
    await scream.getByLabel('Name').fill('Desktop PC');
    await scream.getByLabel('Sender IP').fill('127.0.0.1');
    await scream.getByRole('button', { name: 'Add source' }).click();
    await scream.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Source' }).click();
    await page.getByRole('menuitem', { name: 'RTP Source' }).click();
    const rtp = page.getByRole('dialog', { name: 'Add RTP Source' });
    await rtp.getByLabel('Name').fill('Turntable');
    await rtp.getByLabel('Sender IP').fill('127.0.0.5');
    await rtp.getByLabel('Port', { exact: true }).fill('40002');
    await rtp.getByLabel('Format').selectOption('L24');
    await rtp.getByLabel('Sample rate').selectOption('96000');
    await rtp.getByLabel('Channels').fill('2');
    await rtp.getByRole('button', { name: 'Add source' }).click();
    await rtp.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Sink' }).click();
    const sink = page.getByRole('dialog', { name: 'Add Sink' });
    await sink.getByLabel('Name').fill('Kitchen');
    await sink.getByLabel('IP', { exact: true }).fill('127.0.0.1');
    await sink.getByLabel('Port').fill('4999');
    await sink.getByLabel('Channel layout').selectOption('5.1');
    await sink.getByRole('button', { name: 'Add sink' }).click();
    await sink.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Route' }).click();
    const route = page.getByRole('dialog', { name: 'Add Route' });
    await route.getByLabel('Source').selectOption('Desktop PC');
    await route.getByLabel('Sink').selectOption('Kitchen');
    assert.equal(await route.getByLabel('Name').inputValue(), 'Desktop PC to Kitchen');
    await route.getByRole('button', { name: 'Add route' }).click();
    await route.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'Desktop PC to Kitchen' }).waitFor();

    const c = await config(run);
    assert.deepEqual(
      c.sources.map((s) => [
        s.name,
        s.ip,
        s.rtp?.port ?? null,
        s.rtp?.format ?? null,
        s.rtp?.sample_rate ?? null,
      ]),
      [
        ['Desktop PC', '127.0.0.1', null, null, null],
        ['Turntable', '127.0.0.5', 40002, 'L24', 96000],
      ],
    );
    assert.deepEqual(
      c.sinks.map((s) => [s.name, s.ip, s.port, s.channel_layout, s.channels]),
      [['Kitchen', '127.0.0.1', 4999, '5.1', 6]],
    );
    assert.deepEqual(
      c.routes.map((r) => [r.name, r.source, r.sink]),
      [['Desktop PC to Kitchen', 'Desktop PC', 'Kitchen']],
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a bad value gets the API's rule next to its field; the form stays open and nothing is saved", async () => {
    const { page, context } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Actions for Kitchen' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit sink Kitchen' });
    const volume = dialog.getByLabel('Volume (0 to 1)');
    const ip = dialog.getByLabel('IP', { exact: true });
    await volume.fill('1.5');
    await ip.fill('not-an-address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('must be <= 1 (got 1.5)').waitFor();
    assert.equal(await volume.getAttribute('aria-invalid'), 'true');
    assert.equal(await ip.getAttribute('aria-invalid'), 'true');
    const described = async (input: typeof volume) =>
      input.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
    assert.match(await described(volume), /must be <= 1 \(got 1\.5\)/);
    assert.match(await described(ip), /must be an IPv4 or IPv6 address/);
    await dialog.getByRole('alert').waitFor();
    assert.equal(await volume.inputValue(), '1.5', 'the typed values are kept');
    const unchanged = (await config(run)).sinks[0]!;
    assert.equal(unchanged.volume, 1);
    assert.equal(unchanged.ip, '127.0.0.1');

    await volume.fill('0.25');
    await ip.fill('127.0.0.2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await config(run)).sinks[0]!;
    assert.equal(saved.volume, 0.25);
    assert.equal(saved.ip, '127.0.0.2');
    await context.close();
  });

  test('a delete the API refuses (409) names what uses it; once free it goes, and Undo brings it back', async () => {
    const { page, context } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Actions for Desktop PC', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete source Desktop PC?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const alert = confirm.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /used by route 'Desktop PC to Kitchen'/);
    assert.equal((await config(run)).sources.length, 2);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    const before = (await config(run)).routes[0]!;
    await page.getByRole('button', { name: 'Actions for Desktop PC to Kitchen' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const deleting = page.getByRole('alertdialog', { name: 'Delete route Desktop PC to Kitchen?' });
    await deleting.getByRole('button', { name: 'Delete' }).click();
    // While the dialog is open the rest of the page is hidden from the accessibility tree, so
    // wait for the dialog to go before looking for the card.
    await deleting.waitFor({ state: 'detached' });
    await page
      .getByRole('article', { name: 'Desktop PC to Kitchen' })
      .waitFor({ state: 'detached' });
    assert.deepEqual((await config(run)).routes, []);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('article', { name: 'Desktop PC to Kitchen' }).waitFor();
    assert.deepEqual((await config(run)).routes, [before], 'the same route, config_id included');
    await context.close();
  });

  test("dragging a source's port onto a sink creates the route", async () => {
    await run.api('POST', '/sinks', { name: 'Hall', ip: '127.0.0.1', port: 4998 });
    const { page, context } = await run.open();
    await ready(page);
    const port = page.getByRole('button', { name: 'Connect Turntable to a sink' });
    const target = page.getByRole('article', { name: 'Hall' });
    // Cards grow as live stats and meters arrive, moving everything below them: measure each
    // place right before the pointer goes there (a box read earlier can miss the 19 px port).
    await port.hover();
    await page.mouse.down();
    const from = (await port.boundingBox())!;
    await page.mouse.move(from.x + 40, from.y + 10, { steps: 5 });
    const to = (await target.boundingBox())!;
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await page.mouse.up();
    await page.getByRole('article', { name: 'Turntable to Hall' }).waitFor();
    const routes = (await config(run)).routes.map((r) => [r.name, r.source, r.sink]);
    assert.ok(
      routes.some(([, s, k]) => s === 'Turntable' && k === 'Hall'),
      JSON.stringify(routes),
    );
    await context.close();
  });

  test('audio from a sender no source matches is offered as a source in one click', async () => {
    const stats = (await run.api('GET', '/api/stats')).body as {
      engine: { ports: { scream: number[] } };
    };
    const port = stats.engine.ports.scream[0]!;
    const tx = createSocket('udp4');
    await new Promise<void>((resolve) => tx.bind(0, '127.0.0.3', () => resolve()));
    const packet = Buffer.alloc(1157);
    packet.set([0x01, 16, 2, 0x03, 0x00]);
    const timer = setInterval(() => tx.send(packet, port, '127.0.0.1'), 6);
    try {
      const { page, context } = await run.open();
      await ready(page);
      const offer = page.getByRole('list', { name: 'Unknown senders' });
      await offer.getByText(/Audio arriving from 127\.0\.0\.3/).waitFor();
      await offer.getByRole('button', { name: /Add as source/ }).click();
      const card = page.getByRole('article', { name: 'Scream 127.0.0.3' });
      await card.waitFor();
      await offer.waitFor({ state: 'detached' });
      await card.getByText('not routed').waitFor();
      const added = (await config(run)).sources.find((s) => s.name === 'Scream 127.0.0.3');
      assert.equal(added?.ip, '127.0.0.3');
      await context.close();
    } finally {
      clearInterval(timer);
      tx.close();
    }
  });
});
