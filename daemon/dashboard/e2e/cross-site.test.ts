// Another site's page in a real browser (issue 26, part 2): a page served by a second local
// server tries what any web page can do against the daemon (a text/plain fetch and a form post
// to the media commands and the collections, a GET setter in an image, WebSockets to every
// feed and the desktop) and is refused: nothing changes, no media command is sent, no socket
// delivers a message. With API_TOKEN, a page of the same site (another port of the same
// address, which gets the SameSite=Strict token cookie) is refused the same way. A name
// re-pointed at the daemon (DNS rebinding, Chromium's host resolver rules) gets 421. The
// dashboard itself keeps working, by address and by localhost.
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type Running, ready, start } from './harness/dashboard';

/** Where the sources' media commands go: UDP 9999 (fixed by the protocol) on an address of
 * loopback no other test uses. */
const COMMAND_HOST = `127.${1 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

/** A datagram the daemon never sends, marking the end of what came before it. */
const MARKER = 'marker: everything before me has arrived';

interface CommandReceiver {
  socket: UdpSocket;
  /** The media commands received (the marker left out). */
  received: string[];
  /**
   * Resolves once every command the daemon sent so far is in `received`, the witness that the
   * page's refused requests sent none (instead of a fixed sleep): the daemon answers a media
   * command only once its datagram is handed to the kernel, and the page's requests were all
   * answered before it set `done`; a marker sent now to the same socket over loopback arrives
   * after anything they sent. Fails after 5 s.
   */
  drained: () => Promise<void>;
}

async function commandReceiver(): Promise<CommandReceiver> {
  const socket = createSocket('udp4');
  const received: string[] = [];
  let marked: (() => void) | undefined;
  socket.on('message', (m) => {
    const text = m.toString('latin1');
    if (text === MARKER) marked?.();
    else received.push(text);
  });
  socket.bind(9999, COMMAND_HOST);
  await once(socket, 'listening');
  const drained = async () => {
    const arrived = new Promise<void>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error('the marker did not arrive in 5 s')), 5000);
      marked = () => {
        clearTimeout(late);
        resolve();
      };
    });
    const sender = createSocket('udp4');
    await new Promise<void>((resolve, reject) =>
      sender.send(MARKER, 9999, COMMAND_HOST, (err) => (err ? reject(err) : resolve())),
    );
    sender.close();
    await arrived;
  };
  return { socket, received, drained };
}

/** The attacks, run by the page of another site against `api` (the daemon's origin). */
function attackPage(api: string): string {
  return `<!doctype html><title>Totally normal page</title>
<iframe name="sink" hidden></iframe>
<form id="form" method="POST" action="${api}/sources/Tone/nexttrack" enctype="text/plain" target="sink">
  <input name='{"x":"' value='"}'>
</form>
<script>
const api = ${JSON.stringify(api)};
const results = { messages: {}, closes: {} };
window.results = results;
const sent = [];
// A "simple" request: no preflight, sent with the cookies; the page cannot read the answer.
sent.push(fetch(api + '/sources/Tone/play', { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: 'x' }).catch(() => null));
sent.push(fetch(api + '/sources/Tone/prevtrack', { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' } }).catch(() => null));
sent.push(fetch(api + '/sinks', { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'Evil' }) }).catch(() => null));
sent.push(new Promise((resolve) => {
  const frame = document.querySelector('iframe');
  frame.addEventListener('load', resolve, { once: true });
  document.getElementById('form').submit();
}));
sent.push(new Promise((resolve) => {
  const img = new Image();
  img.onload = img.onerror = resolve;
  img.src = api + '/sinks/Kitchen/volume/0.1';
}));
for (const path of ['/ws/config', '/ws/stats', '/ws/levels', '/ws/vnc/Tone']) {
  sent.push(new Promise((resolve) => {
    const ws = new WebSocket(api.replace('https:', 'wss:') + path);
    results.messages[path] = 0;
    ws.onmessage = () => { results.messages[path]++; };
    ws.onclose = (e) => { results.closes[path] = e.code; resolve(); };
    setTimeout(() => { ws.close(); }, 3000);
  }));
}
Promise.all(sent).then(() => { window.done = true; });
</script>`;
}

/** Serves the attack page (`https` with the daemon's own certificate, so same-site with it). */
async function attacker(html: string, options: { host: string; tlsDir?: string }) {
  const handler = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  };
  const server: Server = options.tlsDir
    ? createHttpsServer(
        {
          cert: readFileSync(join(options.tlsDir, 'tributary.crt')),
          key: readFileSync(join(options.tlsDir, 'tributary.key')),
        },
        handler,
      )
    : createHttpServer(handler);
  server.listen(0, options.host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, url: `${options.tlsDir ? 'https' : 'http'}://${options.host}:${port}/` };
}

async function runAttack(page: Page) {
  await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true, null, {
    timeout: 20_000,
  });
  return page.evaluate(
    () =>
      (
        window as unknown as {
          results: { messages: Record<string, number>; closes: Record<string, number> };
        }
      ).results,
  );
}

async function refusals(run: Running) {
  const res = await run.api('GET', '/api/stats');
  return (res.body as { refusals: { cross_site: number; unknown_host: number } }).refusals;
}

async function seed(run: Running) {
  for (const [url, body] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 }],
    ['/sources', { name: 'Tone', ip: '127.0.0.1', vnc_ip: COMMAND_HOST, vnc_port: 1 }],
  ] as const) {
    const res = await run.api('POST', url, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
}

/** The page's attacks changed nothing, sent no command, read nothing from any socket. */
async function assertNothingHappened(
  run: Running,
  receiver: Pick<CommandReceiver, 'received' | 'drained'>,
  results: Awaited<ReturnType<typeof runAttack>>,
  revision: number,
) {
  await receiver.drained();
  assert.deepEqual(receiver.received, [], 'no media command was sent');
  const config = (await run.api('GET', '/api/config')).body as {
    revision: number;
    config: { sinks: { name: string; volume: number }[] };
  };
  assert.equal(config.revision, revision, 'the configuration did not change');
  assert.deepEqual(
    config.config.sinks.map((s) => [s.name, s.volume]),
    [['Kitchen', 1]],
  );
  assert.deepEqual(results.messages, {
    '/ws/config': 0,
    '/ws/stats': 0,
    '/ws/levels': 0,
    '/ws/vnc/Tone': 0,
  });
}

/** A daemon (engine off) with the entries of `seed`, the command receiver and the attack page
 * servers, all stopped after the suite that made it. */
function scene() {
  const made: { run?: Running; receiver?: CommandReceiver } = {};
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) s.close();
    made.receiver?.socket.close();
    await made.run?.close();
  });
  return {
    servers,
    /** Starts it; resolves with the daemon, the commands received and the config revision. */
    async start(env: Record<string, string>, args: string[] = []) {
      const run = await start({ ENGINE: 'off', ...env }, args);
      made.run = run;
      made.receiver = await commandReceiver();
      await seed(run);
      const config = await run.api('GET', '/api/config');
      return {
        run,
        commands: made.receiver.received,
        drained: made.receiver.drained,
        revision: (config.body as { revision: number }).revision,
      };
    },
  };
}

describe('pages of other sites in Chromium', () => {
  const here = scene();
  let run: Running;

  test('a page from another origin (http://127.0.0.2) is refused every change and every WebSocket; the dashboard keeps working', async () => {
    // DNS rebinding, as the browser sees it: evil.example resolves to the daemon.
    const started = await here.start({}, ['--host-resolver-rules=MAP evil.example 127.0.0.1']);
    run = started.run;
    const { commands, drained, revision } = started;
    const evil = await attacker(attackPage(run.daemon.apiUrl), { host: '127.0.0.2' });
    here.servers.push(evil.server);

    const before = await refusals(run);
    const { page, context } = await run.open(evil.url);
    const results = await runAttack(page);
    await assertNothingHappened(run, { received: commands, drained }, results, revision);
    const after = await refusals(run);
    // 3 fetches, the form, the image, 4 sockets: each refused by the daemon (none unanswered).
    assert.ok(
      after.cross_site - before.cross_site >= 9,
      `${after.cross_site - before.cross_site} refusals`,
    );
    await context.close();

    // The dashboard, by address and by localhost: live, and its changes go through.
    const port = new URL(run.daemon.apiUrl).port;
    for (const base of [run.daemon.apiUrl, `https://localhost:${port}`]) {
      const own = await run.open(`${base}/`);
      await ready(own.page);
      await own.page.getByRole('article', { name: 'Kitchen' }).waitFor();
      await own.page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      await own.page.getByRole('switch', { name: 'Enable Kitchen' }).click();
      await own.page.getByRole('switch', { name: 'Enable Kitchen', checked: false }).waitFor();
      const status = await own.page.evaluate(() =>
        fetch('/sources/Tone/play', { method: 'POST' }).then((r) => r.status),
      );
      assert.equal(status, 200, `${base}: the dashboard's own media command`);
      await own.page.getByRole('switch', { name: 'Enable Kitchen', checked: false }).click();
      await own.page.getByRole('switch', { name: 'Enable Kitchen', checked: true }).waitFor();
      assert.deepEqual(own.errors, [], base);
      await own.context.close();
    }
    await drained();
    assert.deepEqual(commands, ['P', 'P']);
  });

  test('a name re-pointed at the daemon (DNS rebinding) gets 421 and no data', async () => {
    const port = new URL(run.daemon.apiUrl).port;
    const before = await refusals(run);
    const { page, context } = await run.open('/');
    const response = await page.goto(`https://evil.example:${port}/api/config`);
    assert.equal(response?.status(), 421);
    const body = await response!.json();
    assert.equal(body.code, 'TRIBUTARY_UNKNOWN_HOST');
    assert.match(
      body.message,
      /'evil\.example:\d+'.*add evil\.example to the setting ALLOWED_HOSTS/,
    );
    const dashboard = await page.goto(`https://evil.example:${port}/`);
    assert.equal(dashboard?.status(), 421);
    assert.ok((await refusals(run)).unknown_host - before.unknown_host >= 2);
    await context.close();
  });
});

describe('with API_TOKEN, in Chromium', () => {
  const TOKEN = 'kitchen-radio-42';
  const here = scene();

  test('a page of the same site (another port of the same address) carries the token cookie and is still refused', async () => {
    const { run, commands, drained, revision } = await here.start({ API_TOKEN: TOKEN });
    // Served over HTTPS on 127.0.0.1 with the daemon's own (trusted) certificate: the same site
    // as the dashboard, so the SameSite=Strict cookie goes with its requests.
    const evil = await attacker(attackPage(run.daemon.apiUrl), {
      host: '127.0.0.1',
      tlsDir: run.dir,
    });
    here.servers.push(evil.server);
    const { page, context } = await run.open('/');
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ready(page);
    const cookies = await context.cookies();
    assert.ok(cookies.some((c) => c.name === 'tributary_token' && c.sameSite === 'Strict'));

    const tab = await context.newPage();
    // What the page's requests carry, as the daemon receives them.
    const seen: { url: string; cookie: boolean; origin: string | undefined }[] = [];
    tab.on('request', (r) => {
      if (!r.url().startsWith(run.daemon.apiUrl)) return;
      void r
        .allHeaders()
        .then((h) =>
          seen.push({ url: r.url(), cookie: (h.cookie ?? '').includes(TOKEN), origin: h.origin }),
        );
    });
    await tab.goto(evil.url);
    const results = await runAttack(tab);
    await assertNothingHappened(run, { received: commands, drained }, results, revision);
    // The form post (whose headers Chromium reports in full) went with the token cookie: only
    // the Origin check refused it.
    const form = seen.find((s) => s.url.endsWith('/sources/Tone/nexttrack'));
    assert.ok(form?.cookie, `the same-site page sent the token cookie: ${JSON.stringify(seen)}`);
    assert.equal(form?.origin, evil.url.slice(0, -1));
    await context.close();
  });
});
