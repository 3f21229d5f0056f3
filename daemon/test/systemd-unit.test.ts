// The system service unit (systemd/tributary.service): systemd accepts it as written, its
// configuration lives where the service user may write, and it lets the audio engine's threads
// have the real-time priority they ask for.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
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
  // The unit starts Debian's /usr/bin/node; verify checks that the program exists, so point it
  // at the node running this test when that lives elsewhere.
  const copy = join(tempDir(t), 'tributary.service');
  writeFileSync(copy, unit.replace('/usr/bin/node', process.execPath));
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
  assert.deepEqual(values('DynamicUser'), ['yes']);
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
