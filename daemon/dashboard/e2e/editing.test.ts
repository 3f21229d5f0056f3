// Creating, editing and deleting through the dashboard against a real daemon: what the UI does
// is what GET /api/config then says; the API's refusals appear where the user acted.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { config, openDetails, type Running, ready, start } from './harness/dashboard';

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
    await rtp.getByLabel('Format', { exact: true }).selectOption('L24');
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
    assert.match(await described(ip), /must be an IP address, like 192\.168\.1\.20/);
    assert.doesNotMatch(await described(ip), /%zone/);
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

  test("a sink's WebRTC fields: the API's rule under each, then saved to config.yaml and shown again", async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    const edit = async () => {
      await page.getByRole('button', { name: 'Actions for Kitchen' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      return page.getByRole('dialog', { name: 'Edit sink Kitchen' });
    };
    let dialog = await edit();
    const webrtc = dialog.getByRole('group', { name: 'Listen in Browser (WebRTC)' });
    const listeners = webrtc.getByLabel('Max listeners');
    const timeout = webrtc.getByLabel('Session timeout (s)');
    const ice = webrtc.getByLabel('ICE servers');
    // The defaults, and the profiles of the schema.
    assert.equal(await webrtc.getByLabel('Browsers may listen').isChecked(), true);
    assert.equal(await webrtc.getByLabel('Profile').inputValue(), 'balanced');
    assert.deepEqual(await webrtc.getByLabel('Profile').locator('option').allTextContents(), [
      'Low latency (64 kbit/s)',
      'Balanced (128 kbit/s)',
      'High quality (256 kbit/s)',
    ]);
    assert.equal(await listeners.inputValue(), '10');
    assert.equal(await timeout.inputValue(), '30');
    assert.equal(await ice.inputValue(), '');

    await listeners.fill('65');
    await timeout.fill('2');
    await ice.fill('stun:stun.example.org:3478\nhttp://turn.example.org alice s3cret');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').waitFor();
    const described = (input: typeof listeners) =>
      input.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
    assert.match(await described(listeners), /must be <= 64 \(got 65\)/);
    assert.match(await described(timeout), /must be >= 5 \(got 2\)/);
    // The value names the line: the second server's URL.
    assert.match(
      await described(ice),
      /must be a stun:, stuns:, turn: or turns: URL \(got "http:\/\/turn\.example\.org"\)/,
    );
    for (const input of [listeners, timeout, ice]) {
      assert.equal(await input.getAttribute('aria-invalid'), 'true');
    }
    assert.equal((await config(run)).sinks[0]!.webrtc.max_listeners, 10, 'nothing saved');

    await webrtc.getByLabel('Profile').selectOption('high_quality');
    await listeners.fill('3');
    await timeout.fill('120');
    await ice.fill(
      'stun:stun.example.org:3478\n\nturn:turn.example.org:3478,turns:turn.example.org alice s3cret',
    );
    await webrtc.getByLabel('Browsers may listen').uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const expected = {
      enabled: false,
      codec: 'opus',
      profile: 'high_quality',
      max_listeners: 3,
      ice_servers: [
        { urls: 'stun:stun.example.org:3478' },
        {
          urls: ['turn:turn.example.org:3478', 'turns:turn.example.org'],
          username: 'alice',
          credential: 's3cret',
        },
      ],
      session_timeout: 120,
    };
    const onDisk = parse(readFileSync(join(run.dir, 'config.yaml'), 'utf8'));
    const kitchen = onDisk.sinks.find((s: { name: string }) => s.name === 'Kitchen');
    assert.deepEqual(kitchen.webrtc, expected);
    assert.deepEqual((await config(run)).sinks[0]!.webrtc, expected);
    // Disabled: no Listen in Browser button on the card.
    await page
      .getByRole('button', { name: 'Listen in Browser: Kitchen' })
      .waitFor({ state: 'detached' });

    // Opened again, the dialog shows what was saved; saving untouched sends no webrtc change.
    dialog = await edit();
    assert.equal(await webrtc.getByLabel('Browsers may listen').isChecked(), false);
    assert.equal(await webrtc.getByLabel('Profile').inputValue(), 'high_quality');
    assert.equal(await listeners.inputValue(), '3');
    assert.equal(await timeout.inputValue(), '120');
    assert.equal(
      await ice.inputValue(),
      'stun:stun.example.org:3478\nturn:turn.example.org:3478,turns:turn.example.org alice s3cret',
    );
    const requests: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && requests.push(r.postData() ?? ''));
    await webrtc.getByLabel('Browsers may listen').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(requests.length, 1);
    assert.deepEqual(JSON.parse(requests[0]!), { webrtc: { ...expected, enabled: true } });
    await openDetails(page, 'Kitchen');
    await page.getByRole('button', { name: 'Listen in Browser: Kitchen' }).waitFor();
    // The refused save is the browser's only complaint.
    assert.deepEqual(
      errors.map((e) => e.replace(/:\d+\//, ':PORT/')),
      [
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request) (https://127.0.0.1:PORT/sinks/Kitchen)',
      ],
    );
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
