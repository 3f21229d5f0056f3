import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { run } from '../../src/commands/config-check.js';
import { cli } from '../daemon-process.js';
import { runCommand, tempDir } from '../helpers.js';

/** `tributary config check` as a real process (the exit code and what it prints). */
const spawnCheck = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, 'config', 'check', ...args], {
    encoding: 'utf8',
  });

/** The same command run in this process. */
const check = (...args: string[]) => runCommand(run, args);

/** Writes `text` to a file named `name` in the test's directory and returns its path. */
function write(t: TestContext, text: string, name = 'config.yaml', dir = tempDir(t)): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('tributary config check: a valid file exits 0 with a summary', (t) => {
  const file = write(
    t,
    'sinks:\n  - name: Kitchen\n    ip: 192.168.1.20\nsources:\n  - name: PC\nroutes:\n  - name: R\n    source: PC\n    sink: Kitchen\n',
  );
  const res = spawnCheck(file);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stdout, `${file}: valid config file (1 sinks, 1 sources, 1 routes)\n`);
});

test('tributary config check prints every problem with its path and exits 1', async (t) => {
  const file = write(
    t,
    'sinks:\n  - name: A\n  - name: B\n    channels: 9\n  - name: C\n    volume: 1.5\n    colour: red\nroutes:\n  - name: R\n',
  );
  const res = await check(file);
  assert.equal(res.status, 1);
  const lines = res.stdout.trim().split('\n');
  assert.equal(lines[0], `${file}: 5 problems (checked as config file)`);
  for (const expected of [
    'sinks[1].channels must be <= 8 (got 9)',
    'sinks[2].colour is not a known field (got "red")',
    'sinks[2].volume must be <= 1 (got 1.5)',
    'routes[0].source is required',
    'routes[0].sink is required',
  ]) {
    assert.ok(lines.includes(`${file}: ${expected}`), `${expected}\n${res.stdout}`);
  }
});

test('tributary config check: semantic problems, equalizer files, unreadable files', async (t) => {
  const dir = tempDir(t);
  const config = write(
    t,
    'sinks:\n  - name: G\n    is_group: true\n    group_members: [G]\nroutes:\n  - {name: R, source: Nobody, sink: G}\n',
    'config.yaml',
    dir,
  );
  const semantic = await check(config);
  assert.equal(semantic.status, 1);
  assert.match(semantic.stdout, /sinks\[0\]\.group_members must not contain itself \(G -> G\)/);
  assert.match(
    semantic.stdout,
    /routes\[0\]\.source must name an existing source or source group \(got "Nobody"\)/,
  );

  const eq = write(t, 'equalizers:\n  - name: Loud\n    b1: 2.5\n', 'equalizers.yaml', dir);
  const eqRes = await check(eq);
  assert.equal(eqRes.status, 1);
  assert.match(eqRes.stdout, /checked as equalizers file/);
  assert.match(eqRes.stdout, /equalizers\[0\]\.b1 must be <= 2 \(got 2\.5\)/);

  const broken = write(t, 'sinks: [\n', 'broken.yaml', dir);
  const yamlRes = await check(broken);
  assert.equal(yamlRes.status, 1);
  assert.match(yamlRes.stdout, /line \d+, column \d+ is not valid YAML/);

  const missing = await check(join(dir, 'nope.yaml'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read/);
});

test('tributary config check reports names against the rule, with path, rule and remedy', async (t) => {
  const dir = tempDir(t);
  const id = '11111111-1111-4111-8111-111111111111';
  const config = write(
    t,
    `sinks:\n  - name: "\\udfff"\n    config_id: ${id}\n  - name: ".."\n  - name: "a\\u202eb"\n    config_id: 22222222-2222-4222-8222-222222222222\n` +
      'sources:\n  - name: PC\nroutes:\n  - {name: "\\x07R", source: PC, sink: ".."}\n',
    'config.yaml',
    dir,
  );
  const res = spawnCheck(config);
  assert.equal(res.status, 1, res.stdout + res.stderr);
  const lines = res.stdout.trim().split('\n');
  assert.equal(lines[0], `${config}: valid config file (3 sinks, 1 sources, 1 routes)`);
  assert.equal(
    lines[1],
    `${config}: 5 names to fix (the daemon loads the file; the API refuses such names)`,
  );
  for (const expected of [
    `sinks[0].name must not contain a lone UTF-16 surrogate (U+DFFF at character 1) (got "\\udfff"): rename it in the file or through the API at /sinks/${id} (its config_id)`,
    'sinks[1].name must not be "." or ".." (URLs drop such a path segment) (got ".."): rename it in the file, or through the API by the config_id the daemon gives it',
    'sinks[2].name must not contain a bidirectional control character (U+202E at character 2)',
    'routes[0].name must not contain a control character (U+0007 at character 1) (got "\\u0007R")',
    'routes[0].sink must not be "." or ".." (URLs drop such a path segment) (got ".."): renaming the entry it names (or editing the file) fixes it',
  ]) {
    assert.ok(
      lines.some((l) => l.startsWith(`${config}: ${expected}`)),
      `${expected}\n${res.stdout}`,
    );
  }

  const eq = write(t, 'equalizers:\n  - name: "/"\n', 'equalizers.yaml', dir);
  const eqRes = await check(eq);
  assert.equal(eqRes.status, 1);
  assert.match(
    eqRes.stdout,
    /equalizers\[0\]\.name must not contain "\/" \(character 1\) \(got "\/"\): rename the preset in the file \(presets have no config_id\)/,
  );
});

test("tributary config check without FILE checks the daemon's own files and says which it read", async (t) => {
  const own = (env: NodeJS.ProcessEnv) => runCommand((argv, io) => run(argv, io, env), []);
  // The default: $XDG_CONFIG_HOME/tributary/, nothing written yet there.
  const home = tempDir(t);
  const dir = join(home, 'tributary');
  const fresh = await own({ XDG_CONFIG_HOME: home });
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.equal(
    fresh.stdout,
    `Checking the daemon's configuration: ${dir}/config.yaml (the default; set CONFIG_PATH to check another)\n` +
      `${dir}/config.yaml: not written yet (the daemon writes it with its defaults on first start)\n` +
      `${dir}/equalizers.yaml: not written yet (the daemon writes it with its defaults on first start)\n`,
  );
  mkdirSync(dir);
  // Both files there: config.yaml valid, equalizers.yaml (named like neither) with a bad band.
  write(t, 'sinks:\n  - name: Kitchen\n    ip: 192.168.1.20\n', 'config.yaml', dir);
  write(t, 'equalizers:\n  - name: Loud\n    b1: 2.5\n', 'eq.yaml', dir);
  const found = await own({ XDG_CONFIG_HOME: home, EQUALIZER_CONFIG_PATH: join(dir, 'eq.yaml') });
  assert.equal(found.status, 1);
  assert.match(found.stdout, /config\.yaml: valid config file \(1 sinks, 0 sources, 0 routes\)/);
  assert.match(found.stdout, /eq\.yaml: 1 problem \(checked as equalizers file\)/);
  // CONFIG_PATH names another file: that one, and it says so.
  const other = write(t, 'sinks: [\n', 'other.yaml');
  const named = await own({ CONFIG_PATH: other, XDG_CONFIG_HOME: home });
  assert.equal(named.status, 1);
  assert.match(
    named.stdout,
    new RegExp(`^Checking the daemon's configuration: ${other} \\(CONFIG_PATH\\)`),
  );
  assert.match(named.stdout, /other\.yaml: .*not valid YAML/);
  // As a real process, with the environment it was given.
  const spawned = spawnSync(process.execPath, ['--import', 'tsx', cli, 'config', 'check'], {
    encoding: 'utf8',
    env: { ...process.env, CONFIG_PATH: '', XDG_CONFIG_HOME: home, EQUALIZER_CONFIG_PATH: '' },
  });
  assert.equal(spawned.status, 0, spawned.stderr);
  assert.match(spawned.stdout, /config\.yaml: valid config file/);
});
