// Real daemon processes: persistence across a restart, and a kill -9 in the middle of a burst of
// 500 API changes that must lose no acknowledged change and leave a valid file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfigText } from '../src/config/documents.js';
import { startDaemon } from './daemon-process.js';
import { tempDir } from './helpers.js';

test('a sink, source and route added with the API are there after a restart', async (t) => {
  const dir = tempDir(t);
  const first = await startDaemon(dir);
  t.after(() => first.stop('SIGKILL'));
  assert.equal(
    (await first.call('POST', '/sinks', { name: 'Kitchen', ip: '192.168.1.20' })).status,
    201,
  );
  assert.equal(
    (await first.call('POST', '/sources', { name: 'PC', ip: '192.168.1.10' })).status,
    201,
  );
  assert.equal(
    (await first.call('POST', '/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' }))
      .status,
    201,
  );
  assert.equal((await first.call('GET', '/sinks/Kitchen/volume/0.6')).status, 200);
  const before = (await first.call('GET', '/api/config')).body as { config: unknown };
  assert.equal(await first.stop('SIGTERM'), 0);

  const second = await startDaemon(dir);
  t.after(() => second.stop('SIGKILL'));
  const after = (await second.call('GET', '/api/config')).body as { config: unknown };
  assert.deepEqual(after.config, before.config);
  assert.equal(await second.stop('SIGTERM'), 0);
});

test('kill -9 during a burst of 500 API changes loses no acknowledged change', async (t) => {
  const dir = tempDir(t);
  const daemon = await startDaemon(dir);
  t.after(() => daemon.stop('SIGKILL'));
  const ca = readFileSync(join(dir, 'tributary.crt'), 'utf8');
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca });
  t.after(() => agent.destroy());
  const { request } = await import('node:https');
  const post = (path: string, body: unknown) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        `${daemon.apiUrl}${path}`,
        {
          method: path.includes('/volume/') ? 'GET' : 'POST',
          agent,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(path.includes('/volume/') ? undefined : JSON.stringify(body));
    });

  // 500 changes: 250 new sinks, each followed by a volume change on it; 16 in flight at once.
  const changes = Array.from({ length: 500 }, (_, i) => {
    const n = i >> 1;
    return i % 2 === 0
      ? { name: `S${n}`, path: '/sinks', body: { name: `S${n}`, ip: '10.0.0.1' } }
      : {
          name: `S${n}`,
          path: `/sinks/S${n}/volume/${((n % 100) / 100).toFixed(2)}`,
          body: undefined,
        };
  });
  const acked = new Set<number>();
  // What went wrong before the kill (after it, requests in flight fail as they should).
  const problems: string[] = [];
  let next = 0;
  let killedAt = -1;
  const killAfter = 200 + Math.floor(Math.random() * 200);
  const worker = async () => {
    while (next < changes.length) {
      const i = next++;
      // A volume change goes after its sink was acknowledged, so each one can succeed.
      if (i % 2 === 1)
        while (!acked.has(i - 1) && killedAt < 0) await new Promise((r) => setTimeout(r, 1));
      if (killedAt >= 0) return;
      let status: number;
      try {
        status = await post(changes[i]!.path, changes[i]!.body);
      } catch (err) {
        if (killedAt < 0) problems.push(`change ${i} failed before the kill: ${err}`);
        return; // the daemon is gone
      }
      if (status === 200 || status === 201) acked.add(i);
      else problems.push(`change ${i} answered ${status}`);
      if (acked.size >= killAfter && killedAt < 0) {
        killedAt = acked.size;
        daemon.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await daemon.stop('SIGKILL');
  assert.deepEqual(problems, [], 'every change before the kill was acknowledged');
  assert.ok(killedAt > 0, 'the daemon was killed during the burst');

  // The file is whole and valid, and holds every acknowledged change.
  const text = readFileSync(join(dir, 'config.yaml'), 'utf8');
  const { value } = parseConfigText(text, 'config.yaml');
  const sinks = new Map(value.sinks.map((s) => [s.name, s]));
  for (const i of acked) {
    const change = changes[i]!;
    const saved = sinks.get(change.name);
    assert.ok(saved, `acknowledged ${change.path} is on disk`);
    if (i % 2 === 1) {
      const n = i >> 1;
      assert.equal(
        saved.volume,
        Number(((n % 100) / 100).toFixed(2)),
        `acknowledged volume of ${change.name}`,
      );
    }
  }
  t.diagnostic(
    `killed after ${killedAt} acknowledged changes; ${value.sinks.length} sinks on disk`,
  );

  // And the daemon starts again on it.
  const again = await startDaemon(dir);
  t.after(() => again.stop('SIGKILL'));
  const list = (await again.call('GET', '/sinks')).body as unknown[];
  assert.equal(list.length, value.sinks.length);
  assert.equal(await again.stop('SIGTERM'), 0);
});

test('a running daemon picks up hand edits: at once on SIGHUP, else after CONFIGURATION_RELOAD_TIMEOUT', async (t) => {
  const dir = tempDir(t);
  const daemon = await startDaemon(dir, { CONFIGURATION_RELOAD_TIMEOUT: '0.3' });
  t.after(() => daemon.stop('SIGKILL'));
  assert.equal((await daemon.call('POST', '/sinks', { name: 'Kitchen' })).status, 201);
  const file = join(dir, 'config.yaml');
  const { writeFileSync } = await import('node:fs');
  const waitFor = async (predicate: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (!(await predicate())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  };
  const volume = async () =>
    ((await daemon.call('GET', '/sinks/Kitchen')).body as { volume: number }).volume;
  writeFileSync(file, readFileSync(file, 'utf8').replace('volume: 1', 'volume: 0.7'));
  assert.ok(
    await waitFor(async () => (await volume()) === 0.7, 5000),
    'reloaded after the timeout',
  );
  writeFileSync(file, readFileSync(file, 'utf8').replace('volume: 0.7', 'volume: 0.2'));
  daemon.child.kill('SIGHUP');
  assert.ok(await waitFor(async () => (await volume()) === 0.2, 2000), 'reloaded on SIGHUP');
  assert.match(daemon.output(), /reloaded .*config\.yaml \(edited by hand\)/);
  assert.equal(await daemon.stop('SIGTERM'), 0);
});
