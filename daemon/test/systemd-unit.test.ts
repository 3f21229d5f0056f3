// The system service unit (systemd/tributary.service): systemd accepts it as written, its
// configuration lives where the service user may write, and it lets the audio engine's threads
// have the real-time priority they ask for.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unreachableBy } from '../src/commands/service/layout.js';
import { PACKAGED_EXEC, systemdWord, unitFor } from '../src/commands/service/unit.js';
import { tempDir } from './helpers.js';

const unit = readFileSync(
  fileURLToPath(new URL('../systemd/tributary.service', import.meta.url)),
  'utf8',
);
const engineSources = fileURLToPath(new URL('../../native/engine/src/', import.meta.url));

/** Every value the unit gives `name` (`Name=value` lines). */
const values = (name: string) =>
  [...unit.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
// An `env:` skip is counted as skipped by `npm test`, and fails the run under CI=true.

test('systemd-analyze verify accepts the unit without a single warning', {
  skip: !hasAnalyze && 'env: systemd-analyze is not installed (Debian: systemd)',
}, (t) => {
  // The shipped unit starts the package's /usr/bin/tributary (the packaging test verifies it
  // installed); verify checks that the program exists, so check the unit `tributary service
  // install` writes for this checkout, from the same template.
  const copy = join(tempDir(t), 'tributary.service');
  const launcher = fileURLToPath(new URL('../bin/tributary.js', import.meta.url));
  writeFileSync(copy, unitFor(unit, { node: process.execPath, launcher, checkout: 'here' }));
  const res = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
  assert.equal(res.status, 0, res.stderr);
  // verify exits 0 even for a line it ignores (a typo in a setting); only silence is clean.
  assert.equal(`${res.stdout}${res.stderr}`, '');
});

test('the unit allows the real-time priority and nice level the engine threads ask for', () => {
  // native/engine/src/runtime/scheduling.rs: raise_current_thread(P) asks for SCHED_FIFO priority P, then nice -10.
  const asked = readdirSync(engineSources, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.rs'))
    .flatMap((file) => [
      ...readFileSync(join(engineSources, file), 'utf8').matchAll(/raise_current_thread\((\d+)\)/g),
    ])
    .map((m) => Number(m[1]));
  assert.ok(asked.length > 0, 'the engine raises its threads somewhere');
  const rtprio = values('LimitRTPRIO');
  assert.equal(rtprio.length, 1, 'LimitRTPRIO= is set once');
  assert.ok(
    Number(rtprio[0]) >= Math.max(...asked),
    `LimitRTPRIO=${rtprio[0]} covers the priorities the engine asks for (${asked.join(', ')})`,
  );
  const fallback = /setpriority\([^;]*?(-\d+)\)/s.exec(
    readFileSync(join(engineSources, 'runtime', 'scheduling.rs'), 'utf8'),
  );
  assert.ok(fallback, 'scheduling.rs falls back to a nice level');
  assert.deepEqual(values('LimitNICE'), [fallback[1]]);
  assert.deepEqual(values('RestrictRealtime'), [], 'real-time scheduling is not forbidden');
});

test('the configuration directory is one systemd hands to the service user', () => {
  // The daemon writes config.yaml, equalizers.yaml and its certificate beside CONFIG_PATH. With
  // DynamicUser=yes only StateDirectory= (and the cache, logs and runtime ones) are created owned
  // by the service's user; a ConfigurationDirectory= stays root's, and the rest is read-only.
  const config = values('Environment')
    .map((v) => /^CONFIG_PATH=(.*)$/.exec(v)?.[1])
    .find(Boolean);
  assert.ok(config, 'the unit sets CONFIG_PATH');
  // A static user (made by the package or `service install`): with DynamicUser=yes systemd keeps
  // the files in /var/lib/private/tributary, where a moved configuration would not be found.
  assert.deepEqual(values('User'), ['tributary']);
  assert.deepEqual(values('Group'), ['tributary']);
  assert.deepEqual(values('DynamicUser'), []);
  const state = values('StateDirectory');
  assert.equal(state.length, 1, 'StateDirectory= is set once');
  assert.equal(dirname(config), `/var/lib/${state[0]}`);
  assert.ok(
    !values('Environment').some((v) => v.startsWith('EQUALIZER_CONFIG_PATH=')),
    'equalizers.yaml stays beside config.yaml',
  );
});

test('the unit shown on the install page is the one shipped', () => {
  const page = readFileSync(
    fileURLToPath(new URL('../../content/docs/install-tributary.mdx', import.meta.url)),
    'utf8',
  );
  const shown = [...page.matchAll(/```ini\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((block) => block.includes('ExecStart='));
  assert.ok(shown, 'the page shows the unit');
  const settings = (text: string) =>
    text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  assert.deepEqual(settings(shown), settings(unit));
});

test('the unit for a checkout names its Node.js and launcher, quoted for systemd', () => {
  assert.ok(unit.split('\n').includes(PACKAGED_EXEC), 'the shipped unit runs the package command');
  const written = unitFor(unit, {
    node: '/usr/bin/node',
    launcher: '/srv/my audio/100%/daemon/bin/tributary.js',
    checkout: '/srv/my audio/100%',
  });
  const exec = written.split('\n').filter((l) => l.startsWith('ExecStart='));
  assert.deepEqual(exec, [
    'ExecStart=/usr/bin/node "/srv/my audio/100%%/daemon/bin/tributary.js" serve',
  ]);
  assert.match(written, /^ProtectHome=yes$/m);
  const home = unitFor(unit, {
    node: '/usr/bin/node',
    launcher: '/home/ann/tributary/daemon/bin/tributary.js',
    checkout: '/home/ann/tributary',
  });
  assert.match(home, /^ProtectHome=read-only$/m, 'a checkout under /home stays readable');
  assert.equal(systemdWord('/a/$HOME'), '"/a/$$HOME"');
  assert.throws(
    () => unitFor('[Service]\n', { node: 'n', launcher: 'l', checkout: 'c' }),
    /no line/,
  );
});

test('a checkout the service user cannot reach is found', (t) => {
  const base = tempDir(t);
  chmodSync(base, 0o755); // mkdtemp makes it 0700
  const dir = join(base, 'private');
  mkdirSync(join(dir, 'daemon'), { recursive: true });
  const file = join(dir, 'daemon', 'cli.js');
  writeFileSync(file, '', { mode: 0o644 });
  chmodSync(dir, 0o755);
  assert.equal(unreachableBy(file), undefined);
  chmodSync(dir, 0o700);
  assert.deepEqual(unreachableBy(file), { dir, mode: 0o700 });
  chmodSync(dir, 0o755);
  chmodSync(file, 0o600);
  assert.deepEqual(unreachableBy(file), { dir: file, mode: 0o600 });
});
