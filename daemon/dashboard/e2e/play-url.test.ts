// Play a URL from a sink's card (issue 29, "Also"): the dialog shows the API's refusal next to
// its field; a real play shows on the card with a Stop button that stops it. A real daemon with
// the engine on, a WAV file ffmpeg makes here served by a local HTTP server, and a real Scream
// sink socket on 127.0.0.1 (test/plugins/harness.ts).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Locator, Page } from 'playwright-core';
import { tempDir } from '../../test/helpers';
import { audioServer, blockRms, encodeTone, screamSink } from '../../test/plugins/harness';
import { type Running, ready, start } from './harness/dashboard';

/** Whether this build of the engine decodes (engine.addDecodedSource, branch decode). */
const decodes =
  typeof createRequire(import.meta.url)('@tributary/native').Engine?.prototype?.addDecodedSource ===
  'function';

let run: Running;
let page: Page;
before(async () => {
  run = await start();
  ({ page } = await run.open('/', { width: 1440, height: 900 }));
  await ready(page);
});
after(() => run?.close());

async function openPlayUrl(card: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${card}` }).click();
  await page.getByRole('menuitem', { name: 'Play a URL…' }).click();
  const dialog = page.getByRole('dialog', { name: `Play a URL on ${card}` });
  await dialog.waitFor();
  return dialog;
}

/** The API's own answer to the request the dialog sends. */
async function apiAnswer(url: string, sink: string) {
  const res = await run.api('POST', '/plugins/playurlmultiple/play', { urls: [url], sink });
  return { status: res.status, body: res.body as { message: string } };
}

describe('Play a URL', () => {
  test('a refused URL gets the reason next to the field, in the API words', async (t) => {
    const sink = await screamSink(t);
    const server = await audioServer(t, tempDir(t));
    await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: sink.port });
    await page.getByRole('article', { name: 'Kitchen', exact: true }).waitFor();
    const dialog = await openPlayUrl('Kitchen');
    const field = dialog.getByRole('textbox', { name: 'URL' });
    assert.equal(
      await field.evaluate((el) => el === document.activeElement),
      true,
      'the dialog opens on its URL field',
    );

    // 400: a scheme that is not played; the problem names the field, shown next to it.
    await field.fill('ftp://127.0.0.1/chime.mp3');
    await dialog.getByRole('button', { name: 'Play' }).click();
    const scheme = dialog.getByText('scheme ftp: is not played (http, https, file)', {
      exact: true,
    });
    await scheme.waitFor();
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    assert.ok(
      describedBy.includes((await scheme.getAttribute('id')) ?? '-'),
      'the error describes the field',
    );
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal((await apiAnswer('ftp://127.0.0.1/chime.mp3', 'Kitchen')).status, 400);

    // 502: the server answers 404; the message as the API words it.
    const missing = server.url('/missing.mp3');
    await field.fill(missing);
    await dialog.getByRole('button', { name: 'Play' }).click();
    const answer = await apiAnswer(missing, 'Kitchen');
    assert.equal(answer.status, 502);
    await dialog.getByText(answer.body.message, { exact: true }).waitFor();
    assert.equal(await scheme.count(), 0, 'the earlier error is gone');
    assert.equal(await dialog.isVisible(), true, 'the dialog stays open to correct the URL');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('a sink group offers Play a URL too', async () => {
    await run.api('POST', '/sinks', { name: 'Hall', ip: '127.0.0.1', port: 4011 });
    await run.api('POST', '/sinks', {
      name: 'Downstairs',
      is_group: true,
      group_members: ['Kitchen', 'Hall'],
    });
    await page.getByRole('article', { name: 'Downstairs', exact: true }).waitFor();
    const dialog = await openPlayUrl('Downstairs');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('a URL that plays shows on the card until Stop stops it', {
    skip: decodes ? false : 'the engine binding has no addDecodedSource yet (branch decode)',
  }, async (t) => {
    const dir = tempDir(t);
    encodeTone(dir, 'doorbell', 'wav', { seconds: 30 });
    const server = await audioServer(t, dir);
    const sink = await screamSink(t);
    await run.api('POST', '/sinks', { name: 'Porch', ip: '127.0.0.1', port: sink.port });
    const card = page.getByRole('article', { name: 'Porch', exact: true });
    await card.waitFor();

    const dialog = await openPlayUrl('Porch');
    await dialog.getByRole('textbox', { name: 'URL' }).fill(server.url('/files/doorbell.wav'));
    await dialog.getByRole('button', { name: 'Play' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Playing doorbell.wav on Porch', { exact: true }).waitFor();
    const row = card.getByRole('list', { name: 'Playing from URLs on Porch' });
    await row.getByText('Playing doorbell.wav').waitFor();

    // The tone arrives at the sink.
    const before = sink.frames();
    await sleep(500);
    const heard = blockRms(sink.left().subarray(before));
    assert.ok(heard.filter((r) => r > 0.05).length > 20, 'the file plays at the sink');

    await row.getByRole('button', { name: 'Stop doorbell.wav' }).click();
    await row.waitFor({ state: 'detached', timeout: 5000 });
    const listing = await run.api('GET', '/plugins/playurl/');
    assert.deepEqual(listing.body, []);
  });

  test('a playback started elsewhere (curl, home automation) shows on the group card, and goes when stopped there', {
    skip: decodes ? false : 'the engine binding has no addDecodedSource yet (branch decode)',
  }, async (t) => {
    const dir = tempDir(t);
    encodeTone(dir, 'announcement', 'wav', { seconds: 30 });
    const server = await audioServer(t, dir);
    const started = await run.api('POST', '/plugins/playurlmultiple/play', {
      urls: [server.url('/files/announcement.wav')],
      sink: 'Downstairs',
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    // Learnt from /ws/stats (plugins.played changed), not from a request this page made.
    const row = page
      .getByRole('article', { name: 'Downstairs', exact: true })
      .getByRole('list', { name: 'Playing from URLs on Downstairs' });
    await row.getByText('Playing announcement.wav').waitFor({ timeout: 3000 });
    const id = (started.body as { id: string }).id;
    const stopped = await run.api('DELETE', `/plugins/playurl/${id}`);
    assert.equal(stopped.status, 200);
    await row.waitFor({ state: 'detached', timeout: 3000 });
  });
});
