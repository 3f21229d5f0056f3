// `tributary service install` and `uninstall` against a temporary root (--root): the real
// systemd-sysusers and systemctl working offline on that directory, a user's configuration moved
// or copied with its owner set, and what the commands say without systemd.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli.js';
import { layout, unreachableBy } from '../../src/commands/service/layout.js';
import { runCommand, tempDir } from '../helpers.js';

const run = (...args: string[]) => runCommand(main, args);
const daemon = fileURLToPath(new URL('../../', import.meta.url));
const launcher = join(daemon, 'bin', 'tributary.js');
const unitInRoot = (root: string) => join(root, 'etc/systemd/system/tributary.service');
const wants = (root: string) =>
  join(root, 'etc/systemd/system/multi-user.target.wants/tributary.service');

/** Every path under `dir`, sorted (to show that nothing changed). */
const listing = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

const tools = ['systemd-sysusers', 'systemctl'].filter(
  (tool) => spawnSync(tool, ['--version']).status !== 0,
);
const cannot =
  process.getuid?.() !== 0
    ? 'env: needs root (it sets the owner of the moved files)'
    : tools.length > 0
      ? `env: ${tools.join(', ')} missing (Debian: systemd)`
      : !existsSync(layout('/').program)
        ? 'env: daemon/dist is not built (npm test builds it first)'
        : false;

/** A root where systemd "runs" (/run/systemd/system) and a user's configuration folder. */
function machine(t: TestContext) {
  const root = join(tempDir(t), 'root');
  mkdirSync(join(root, 'run/systemd/system'), { recursive: true });
  mkdirSync(join(root, 'etc'));
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\n');
  const from = join(tempDir(t), 'home-config');
  mkdirSync(from);
  writeFileSync(join(from, 'config.yaml'), 'revision: 4\nsinks: []\n');
  writeFileSync(join(from, 'equalizers.yaml'), 'equalizers: []\n');
  writeFileSync(join(from, 'tributary.key'), 'KEY', { mode: 0o600 });
  writeFileSync(join(from, '.config.yaml.77.0a1b2c3d.tmp'), 'half a save');
  return { root, from };
}

function serviceUser(root: string) {
  const line = readFileSync(join(root, 'etc/passwd'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('tributary:'));
  assert.ok(line, 'the user tributary is in /etc/passwd');
  const [, , uid, gid, , home, shell] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), home, shell };
}

test('install writes the unit for this checkout, makes the user, moves the configuration; uninstall undoes the unit', {
  skip: cannot,
}, async (t) => {
  const { root, from } = machine(t);
  const res = await run('service', 'install', '--root', root, '--from', from, '--yes');
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /created the system user tributary/);
  assert.match(res.stdout, /moved config\.yaml, equalizers\.yaml, tributary\.key from/);

  const user = serviceUser(root);
  assert.equal(user.home, '/var/lib/tributary');
  assert.equal(user.shell, '/usr/sbin/nologin');

  const unit = readFileSync(unitInRoot(root), 'utf8');
  const exec = unit.split('\n').filter((l) => l.startsWith('ExecStart='));
  assert.deepEqual(exec, [`ExecStart=${realpathSync(process.execPath)} ${launcher} serve`]);
  const template = readFileSync(join(daemon, 'systemd/tributary.service'), 'utf8');
  const settings = (text: string) =>
    text.split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('ExecStart='));
  const expected = settings(template);
  if (daemon.startsWith('/home/') || daemon.startsWith('/root/')) {
    expected[expected.indexOf('ProtectHome=yes')] = 'ProtectHome=read-only';
  }
  assert.deepEqual(settings(unit), expected, 'every other line is the shipped unit');
  assert.equal(readlinkSync(wants(root)), '/etc/systemd/system/tributary.service');

  const state = join(root, 'var/lib/tributary');
  assert.equal(statSync(state).mode & 0o777, 0o750);
  assert.deepEqual(listing(state), ['config.yaml', 'equalizers.yaml', 'tributary.key']);
  for (const name of ['', ...listing(state)]) {
    const s = statSync(join(state, name));
    assert.deepEqual([s.uid, s.gid], [user.uid, user.gid], `owner of ${name || 'the folder'}`);
  }
  assert.equal(statSync(join(state, 'tributary.key')).mode & 0o777, 0o600);
  assert.equal(readFileSync(join(state, 'config.yaml'), 'utf8'), 'revision: 4\nsinks: []\n');
  assert.equal(existsSync(from), false, 'moved, not copied');

  // Again: the user exists, the service's configuration stays as it is.
  const again = await run('service', 'install', '--root', root, '--no-move');
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /the system user tributary exists/);
  assert.equal(readFileSync(join(state, 'config.yaml'), 'utf8'), 'revision: 4\nsinks: []\n');

  const removed = await run('service', 'uninstall', '--root', root);
  assert.equal(removed.status, 0, removed.stderr);
  assert.match(removed.stdout, /Kept \/var\/lib\/tributary/);
  assert.equal(existsSync(unitInRoot(root)), false);
  assert.equal(existsSync(wants(root)), false);
  assert.deepEqual(listing(state), ['config.yaml', 'equalizers.yaml', 'tributary.key']);
  const twice = await run('service', 'uninstall', '--root', root);
  assert.equal(twice.status, 0);
  assert.match(twice.stdout, /No service to remove/);
});

test('--copy keeps the user configuration; a file the service already has is not overwritten', {
  skip: cannot,
}, async (t) => {
  const { root, from } = machine(t);
  mkdirSync(join(root, 'var/lib/tributary'), { recursive: true });
  writeFileSync(join(root, 'var/lib/tributary/equalizers.yaml'), 'the service one\n');
  const res = await run('service', 'install', '--root', root, '--from', from, '--copy');
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /copied config\.yaml, tributary\.key from/);
  assert.match(res.stdout, /kept equalizers\.yaml already in/);
  const state = join(root, 'var/lib/tributary');
  assert.equal(readFileSync(join(state, 'equalizers.yaml'), 'utf8'), 'the service one\n');
  assert.equal(readFileSync(join(from, 'config.yaml'), 'utf8'), 'revision: 4\nsinks: []\n');
  assert.equal(statSync(join(state, 'equalizers.yaml')).uid, serviceUser(root).uid);
});

test('without a terminal or a flag it asks for one and changes nothing', {
  skip: cannot,
}, async (t) => {
  const { root, from } = machine(t);
  const before = listing(root);
  const res = await run('service', 'install', '--root', root, '--from', from);
  assert.equal(res.status, 2);
  assert.match(res.stderr, /no terminal to ask .*--yes \(move it\), --copy or --no-move/s);
  assert.deepEqual(listing(root), before);
  assert.ok(existsSync(join(from, 'config.yaml')));
});

test('on a terminal it asks, and the answer c copies', { skip: cannot }, (t) => {
  const { root, from } = machine(t);
  const cli = join(daemon, 'src/cli.ts');
  const command = `${process.execPath} --import tsx ${cli} service install --root ${root} --from ${from}`;
  // script(1) runs the command on a pseudo-terminal fed from this stdin.
  const res = spawnSync('script', ['-qec', command, '/dev/null'], {
    input: 'c\n',
    encoding: 'utf8',
    cwd: daemon,
  });
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /\[M\]ove it there, \[c\]opy it/);
  assert.match(res.stdout, /copied config\.yaml, equalizers\.yaml, tributary\.key/);
  assert.ok(existsSync(join(root, 'var/lib/tributary/config.yaml')));
  assert.ok(existsSync(join(from, 'config.yaml')), 'a copy leaves the original');
});

test('a unit it did not write is kept aside on install and refused by uninstall', {
  skip: cannot,
}, async (t) => {
  const { root } = machine(t);
  mkdirSync(join(root, 'etc/systemd/system'), { recursive: true });
  writeFileSync(unitInRoot(root), '[Service]\nExecStart=/opt/tributary/hand-made\n');
  const refused = await run('service', 'uninstall', '--root', root);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /was not written by tributary service install: left as it is/);
  const res = await run('service', 'install', '--root', root, '--no-move');
  assert.equal(res.status, 0, res.stderr);
  assert.equal(
    readFileSync(`${unitInRoot(root)}.replaced`, 'utf8'),
    '[Service]\nExecStart=/opt/tributary/hand-made\n',
  );
});

test('without systemd it says so, prints how to run serve elsewhere and changes nothing', async (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'etc'));
  const before = listing(root);
  for (const command of ['install', 'uninstall']) {
    const res = await run('service', command, '--root', root, '--yes');
    if (command === 'uninstall') {
      // uninstall has no --yes: bad usage first.
      assert.equal(res.status, 2);
      const plain = await run('service', command, '--root', root);
      assert.equal(plain.status, 1);
      assert.match(plain.stderr, /systemd is not running as PID 1 here/);
      continue;
    }
    assert.equal(res.status, 1);
    assert.match(res.stderr, /systemd is not running as PID 1 here \(no \/run\/systemd\/system/);
    assert.match(res.stderr, /Nothing was changed/);
    const serve = `CONFIG_PATH=/var/lib/tributary/config.yaml ${realpathSync(process.execPath)} ${launcher} serve`;
    assert.ok(res.stderr.includes(serve), `names the command to supervise: ${serve}`);
    assert.match(res.stderr, /SIGTERM/);
  }
  assert.deepEqual(listing(root), before);
});

test('service --help lists both commands; conflicting choices are bad usage', async () => {
  const help = await run('service', '--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /service install\s+Install the system service/);
  assert.match(help.stdout, /service uninstall\s+Stop and remove/);
  const both = await run('service', 'install', '--yes', '--copy');
  assert.equal(both.status, 2);
  assert.match(both.stderr, /choose one of --yes, --copy/);
});

test('a folder others cannot enter on the way to the checkout is found (the check install makes on this machine)', (t) => {
  const base = tempDir(t);
  chmodSync(base, 0o755); // mkdtemp makes it 0700
  const dir = join(base, 'private');
  mkdirSync(join(dir, 'repo'), { recursive: true, mode: 0o755 });
  const file = join(dir, 'repo', 'cli.js');
  writeFileSync(file, '', { mode: 0o644 });
  chmodSync(dir, 0o700);
  assert.deepEqual(unreachableBy(file), { dir, mode: 0o700 });
  chmodSync(dir, 0o755);
  assert.equal(unreachableBy(file), undefined);
  chmodSync(file, 0o600);
  assert.deepEqual(unreachableBy(file), { dir: file, mode: 0o600 });
});
