// A sink's MP3 stream (GET /stream/{ip}/, issue 14) plays in Chromium's <audio> element from the
// daemon over HTTPS: the element decodes it and its clock advances.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDetails, type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  // Port 9 (discard): the sink's own packets go nowhere; the stream is what is listened to.
  const res = await run.api('POST', '/sinks', { name: 'Desk', ip: '127.0.0.1', port: 9 });
  assert.equal(res.status, 201);
  const group = await run.api('POST', '/sinks', {
    name: 'Upstairs',
    is_group: true,
    group_members: ['Desk'],
  });
  assert.equal(group.status, 201);
});
after(() => run?.close());

test('Chromium plays /stream/{ip}/ in <audio>: currentTime advances, no error', async () => {
  const { page } = await run.open('/');
  const played = await page.evaluate(async () => {
    const audio = new Audio('/stream/127.0.0.1/');
    audio.muted = true; // autoplay without a user gesture
    await audio.play();
    const start = audio.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const result = {
      advanced: audio.currentTime - start,
      error: audio.error?.message ?? null,
      paused: audio.paused,
    };
    audio.pause();
    audio.src = '';
    return result;
  });
  assert.equal(played.error, null);
  assert.equal(played.paused, false);
  assert.ok(played.advanced > 1.5, `currentTime advanced ${played.advanced} s in 2.5 s`);
  const stats = (await run.api('GET', '/api/stats')).body as {
    streams: Array<{ sink: string; bytes_sent: number }>;
  };
  assert.equal(stats.streams[0]?.sink, 'Desk');
  assert.ok((stats.streams[0]?.bytes_sent ?? 0) > 40_000);
});

test("a sink's card has a Stream button to its MP3 stream; a group's has none", async () => {
  const { page } = await run.open('/');
  await ready(page);
  await openDetails(page, 'Desk');
  await openDetails(page, 'Upstairs');
  const link = page.getByRole('link', { name: 'Stream: Desk as MP3 (new tab)' });
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), '/stream/127.0.0.1/');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.equal(await page.getByRole('link', { name: /^Stream: Upstairs/ }).count(), 0);
  // What it opens is the stream itself.
  const head = await page.evaluate(
    async (href) => {
      const controller = new AbortController();
      const res = await fetch(href as string, { signal: controller.signal });
      const type = res.headers.get('content-type');
      controller.abort();
      return { status: res.status, type };
    },
    await link.getAttribute('href'),
  );
  assert.equal(head.status, 200);
  assert.equal(head.type, 'audio/mpeg');
});
