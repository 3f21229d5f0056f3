// Names over real HTTPS, against a real daemon process and curl (issue 26): every class of bad
// name refused with a 400 naming the field and the rule, "." and ".." as raw path segments too;
// and a config.yaml written before the rule (lone surrogates, ".", "..", bidirectional controls,
// C1 controls) still loads, each such entry reached, renamed and deleted by its config_id.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { type Daemon, startDaemon } from '../daemon-process.js';
import { tempDir } from '../helpers.js';
import { BAD_NAMES, inUrl } from '../robustness/bad-names.js';

const run = promisify(execFile);

interface Answer {
  status: number;
  body: {
    code?: string;
    message?: string;
    name?: string;
    details?: { path: string; keyword: string; rule: string }[];
  } & Record<string, unknown>;
}

/** curl, trusting the daemon's certificate; `raw` sends the path exactly as given. */
async function curl(
  daemon: Daemon,
  dir: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: boolean } = {},
): Promise<Answer> {
  const args = [
    '-sS',
    '--cacert',
    join(dir, 'tributary.crt'),
    '-X',
    method,
    '-w',
    '\n%{http_code}',
  ];
  if (options.raw) args.push('--path-as-is');
  if (options.body !== undefined) {
    args.push(
      '-H',
      'content-type: application/json',
      '--data-binary',
      JSON.stringify(options.body),
    );
  }
  const { stdout } = await run('curl', [...args, `${daemon.apiUrl}${path}`]);
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  return { status: Number(stdout.slice(cut + 1)), body: text ? JSON.parse(text) : {} };
}

test('a real daemon refuses every class of bad name over HTTPS, in bodies and in URLs', async (t) => {
  const dir = tempDir(t);
  const daemon = await startDaemon(dir);
  t.after(() => daemon.stop('SIGKILL'));
  assert.equal(
    (await curl(daemon, dir, 'POST', '/sinks', { body: { name: 'Kitchen' } })).status,
    201,
  );
  for (const { what, name, rule } of BAD_NAMES) {
    const created = await curl(daemon, dir, 'POST', '/sinks', { body: { name } });
    assert.equal(created.status, 400, `${what}: ${JSON.stringify(created.body)}`);
    const [problem] = created.body.details!;
    assert.equal(problem!.path, 'name', what);
    assert.equal(problem!.keyword, 'name', what);
    assert.match(problem!.rule, rule, what);
    // The same name as the {name} of a URL, sent as is (curl --path-as-is).
    const raw = name === '.' || name === '..' ? name : inUrl(name);
    const removed = await curl(daemon, dir, 'DELETE', `/sinks/${raw}`, { raw: true });
    assert.equal(
      removed.status,
      400,
      `${what}: DELETE /sinks/${raw}: ${JSON.stringify(removed.body)}`,
    );
    if (/[\ud800-\udfff]/.test(name)) assert.equal(removed.body.code, 'TRIBUTARY_BAD_URL', what);
    else assert.match(removed.body.details![0]!.rule, rule, `${what}: DELETE /sinks/${raw}`);
  }
  const sinks = await curl(daemon, dir, 'GET', '/sinks');
  assert.deepEqual(
    (sinks.body as unknown as { name: string }[]).map((s) => s.name),
    ['Kitchen'],
  );
});

const ids = {
  surrogate: '11111111-1111-4111-8111-111111111111',
  dot: '22222222-2222-4222-8222-222222222222',
  dots: '33333333-3333-4333-8333-333333333333',
  kitchen: '44444444-4444-4444-8444-444444444444',
  bidi: '55555555-5555-4555-8555-555555555555',
  c1: '66666666-6666-4666-8666-666666666666',
  route: '77777777-7777-4777-8777-777777777777',
  route2: '88888888-8888-4888-8888-888888888888',
};

/** A config.yaml as an older daemon could have written it: every name there broke no rule then. */
const legacy = `sinks:
  - name: "\\udfff"
    config_id: ${ids.surrogate}
    ip: 127.0.0.1
  - name: "."
    config_id: ${ids.dot}
  - name: ".."
    config_id: ${ids.dots}
  - name: Kitchen
    config_id: ${ids.kitchen}
sources:
  - name: "PC\\u202e"
    config_id: ${ids.bidi}
  - name: "a\\x85b"
    config_id: ${ids.c1}
routes:
  - name: "\\udfff"
    config_id: ${ids.route}
    source: "PC\\u202e"
    sink: Kitchen
  - name: R2
    config_id: ${ids.route2}
    source: "PC\\u202e"
    sink: "\\udfff"
`;

test('a config.yaml with names against the rule loads, and config_ids reach, rename and delete them', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'config.yaml'), legacy);
  const daemon = await startDaemon(dir);
  t.after(() => daemon.stop('SIGKILL'));
  const call = (method: string, path: string, body?: unknown) =>
    curl(daemon, dir, method, path, body === undefined ? {} : { body });

  // Loaded, and the log says which names break the rule and how to reach them.
  const log = daemon.output();
  assert.match(log, /has 9 names the API would refuse/);
  assert.match(log, /sinks\[0\]\.name must not contain a lone UTF-16 surrogate \(U\+DFFF/);
  assert.ok(log.includes(`/sinks/${ids.surrogate} (its config_id)`), log);
  assert.match(log, /sources\[1\]\.name must not contain a control character \(U\+0085/);
  assert.match(log, /routes\[1\]\.sink must not contain a lone UTF-16 surrogate/);
  const names = ((await call('GET', '/sinks')).body as unknown as { name: string }[]).map(
    (s) => s.name,
  );
  assert.deepEqual(names, ['\udfff', '.', '..', 'Kitchen']);

  // The route named with a lone surrogate blocks deleting its sink until it is deleted itself.
  const refused = await call('DELETE', '/sinks/Kitchen');
  assert.equal(refused.status, 409);
  assert.equal((await call('GET', `/routes/${ids.route}`)).body.name, '\udfff');
  assert.equal((await call('DELETE', `/routes/${ids.route}`)).status, 200);
  assert.equal((await call('DELETE', '/sinks/Kitchen')).status, 200);

  // A name left as it is does not stop other changes.
  assert.equal((await call('POST', '/sinks', { name: 'Den' })).status, 201);
  assert.equal((await call('PUT', `/sinks/${ids.dots}/volume/0.5`)).status, 200);

  // Renamed by config_id: the routes naming them follow.
  const renamed = await call('PUT', `/sinks/${ids.surrogate}`, { name: 'Lounge' });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.equal(renamed.body.config_id, ids.surrogate);
  assert.equal((await call('PUT', `/sources/${ids.bidi}`, { name: 'PC' })).status, 200);
  const route = (await call('GET', '/routes/R2')).body;
  assert.deepEqual([route.source, route.sink], ['PC', 'Lounge']);
  // A rename to another bad name is refused like any other.
  const bad = await call('PUT', `/sources/${ids.c1}`, { name: 'a\u0085c' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.details![0]!.rule, /control character \(U\+0085/);
  assert.equal((await call('DELETE', `/sinks/${ids.dot}`)).status, 200);

  // Saved as left: what was fixed is fixed, ".." and "a\x85b" are still there and load again.
  assert.equal(await daemon.stop('SIGTERM'), 0);
  const text = readFileSync(join(dir, 'config.yaml'), 'utf8');
  assert.ok(!text.includes('\\udfff') && !text.includes('\u202e'), text);
  const again = await startDaemon(dir);
  t.after(() => again.stop('SIGKILL'));
  assert.match(again.output(), /has 2 names the API would refuse/);
  const sinks = ((await again.call('GET', '/sinks')).body as { name: string }[]).map((s) => s.name);
  assert.deepEqual(sinks, ['Lounge', '..', 'Den']);
  assert.equal(
    ((await again.call('GET', `/sources/${ids.c1}`)).body as { name: string }).name,
    'a\u0085b',
  );
});
