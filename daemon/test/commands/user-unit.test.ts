// `tributary receive|send --install-unit [options]`, `--print-unit` and `--uninstall-unit`: the
// systemd user unit is written whole into $XDG_CONFIG_HOME/systemd/user (else ~/.config), runs
// the program with exactly the options given, and is checked by systemd-analyze where Debian's
// systemd is installed. Real files in a temporary HOME; systemctl is never run (the command only
// prints what to run), and the program is a stand-in script named by TRIBUTARY_*_BIN.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run as receive } from '../../src/commands/receive.js';
import { run as send } from '../../src/commands/send.js';
import { parseExecLine } from '../../src/commands/user-unit/exec-line.js';
import { runCommand } from '../helpers.js';

interface Home {
  readonly dir: string;
  readonly units: string;
  readonly receiver: string;
  readonly sender: string;
}

/** Runs `body` with HOME, XDG_CONFIG_HOME and the programs' variables pointing into a temp dir. */
async function inHome(body: (home: Home) => Promise<void>, xdg = true): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'user-unit-'));
  const bin = join(dir, 'tributary build');
  mkdirSync(bin);
  const receiver = join(bin, 'tributary-receive');
  const sender = join(bin, 'tributary-send');
  for (const program of [receiver, sender]) {
    writeFileSync(program, '#!/bin/sh\necho "ran $0" >&2\nexit 0\n');
    chmodSync(program, 0o755);
  }
  const names = ['HOME', 'XDG_CONFIG_HOME', 'TRIBUTARY_RECEIVE_BIN', 'TRIBUTARY_SEND_BIN'];
  const saved = names.map((name) => process.env[name]);
  process.env.HOME = dir;
  if (xdg) process.env.XDG_CONFIG_HOME = join(dir, 'xdg');
  else process.env.XDG_CONFIG_HOME = 'relative/is/ignored';
  process.env.TRIBUTARY_RECEIVE_BIN = receiver;
  process.env.TRIBUTARY_SEND_BIN = sender;
  const units = xdg ? join(dir, 'xdg', 'systemd', 'user') : join(dir, '.config', 'systemd', 'user');
  try {
    await body({ dir, units, receiver, sender });
  } finally {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

const execStart = (unit: string) => {
  const line = unit.split('\n').find((l) => l.startsWith('ExecStart='));
  assert.ok(line, unit);
  return parseExecLine(line.slice('ExecStart='.length));
};

const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
function verify(home: Home, unit: string): void {
  if (!analyze) return;
  const runtime = join(home.dir, 'run');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const res = spawnSync('systemd-analyze', ['verify', '--user', unit], {
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
  });
  assert.equal(res.status, 0, `systemd-analyze verify --user ${unit}: ${res.stderr}`);
}

test('receive --install-unit writes the unit with the options exactly as given', async () => {
  await inHome(async (home) => {
    const args = ['-u', '-p', '4010', '-t', '60', '-n', 'Living "room" 100% $HOME \\ ;'];
    const res = await runCommand(receive, ['--install-unit', ...args]);
    assert.equal(res.status, 0, res.stderr);
    const path = join(home.units, 'tributary-receive.service');
    const unit = readFileSync(path, 'utf8');
    assert.deepEqual(execStart(unit), [home.receiver, ...args]);
    assert.match(unit, /^# Written by `tributary receive --install-unit`/);
    assert.match(unit, /^After=pipewire-pulse\.service pulseaudio\.service$/m);
    assert.match(unit, /^Restart=on-failure$/m);
    assert.match(unit, /^RestartPreventExitStatus=2$/m);
    assert.match(unit, /^WantedBy=default\.target$/m);
    assert.doesNotMatch(unit, /^(User|Group)=/m, 'a user unit runs as its user');
    assert.deepEqual(readdirSync(home.units), ['tributary-receive.service'], 'no temporary left');
    assert.equal(res.stderr, '', 'the program itself did not run');
    assert.match(res.stdout, new RegExp(`^Wrote ${path.replaceAll('.', '\\.')}:\n`));
    assert.match(
      res.stdout,
      /\n {2}systemctl --user daemon-reload && systemctl --user enable --now tributary-receive\.service\n/,
    );
    assert.match(res.stdout, /\n {2}sudo loginctl enable-linger \S+\n/);
    assert.match(res.stdout, /journalctl --user -u tributary-receive\.service -f/);
    assert.doesNotMatch(res.stdout, /debug build/);
    verify(home, path);

    // Again with other options: the same file, replaced whole, and a restart to apply it.
    const again = await runCommand(receive, ['--install-unit', '-u', '-s', 'alsa_output.usb']);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(execStart(readFileSync(path, 'utf8')), [
      home.receiver,
      '-u',
      '-s',
      'alsa_output.usb',
    ]);
    assert.match(
      again.stdout,
      /It replaces the unit written before, which had\n {2}ExecStart=.*"Living/,
    );
    assert.match(again.stdout, /systemctl --user restart tributary-receive\.service/);
  });
});

test('without XDG_CONFIG_HOME (or a relative one) the unit goes to ~/.config/systemd/user', async () => {
  await inHome(async (home) => {
    const res = await runCommand(receive, ['--install-unit', '-u']);
    assert.equal(res.status, 0, res.stderr);
    assert.ok(
      existsSync(join(home.dir, '.config', 'systemd', 'user', 'tributary-receive.service')),
    );
    assert.ok(!existsSync(join(home.dir, 'relative')));
  }, false);
});

test('send --install-unit needs -h HOST; --print-unit writes nothing', async () => {
  await inHome(async (home) => {
    const path = join(home.units, 'tributary-send.service');
    const missing = await runCommand(send, ['--install-unit', '-P', 'scream']);
    assert.equal(missing.status, 2);
    assert.equal(
      missing.stderr,
      'tributary send --install-unit: -h HOST: the Tributary server to send to is required\nNothing was written.\n',
    );
    const printed = await runCommand(send, [
      '--print-unit',
      '-h',
      'tributary.local',
      '-d',
      'my source',
    ]);
    assert.equal(printed.status, 0, printed.stderr);
    assert.deepEqual(execStart(printed.stdout), [
      home.sender,
      '-h',
      'tributary.local',
      '-d',
      'my source',
    ]);
    assert.ok(!existsSync(path));

    const res = await runCommand(send, ['-h', '192.168.1.10', '--install-unit', '-v']);
    assert.equal(res.status, 0, res.stderr);
    const unit = readFileSync(path, 'utf8');
    assert.deepEqual(execStart(unit), [home.sender, '-h', '192.168.1.10', '-v']);
    assert.match(unit, /^Description=Tributary sender/m);
    verify(home, path);
  });
});

test('an option a unit cannot hold is refused and nothing is written', async () => {
  await inHome(async (home) => {
    const res = await runCommand(receive, ['--install-unit', '-n', 'two\nlines']);
    assert.equal(res.status, 2);
    assert.match(
      res.stderr,
      /control character \(0x0a\) cannot be written into a unit\nNothing was written\.\n$/,
    );
    assert.ok(!existsSync(home.units));
    const both = await runCommand(receive, ['--install-unit', '--uninstall-unit']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /choose one of --install-unit, --uninstall-unit/);
  });
});

test('without the program built it says so and writes nothing', async () => {
  await inHome(async (home) => {
    process.env.TRIBUTARY_RECEIVE_BIN = join(home.dir, 'not-built');
    const res = await runCommand(receive, ['--install-unit', '-u']);
    assert.equal(res.status, 1);
    assert.match(
      res.stderr,
      /the program is not built .*cargo build --release -p tributary-receive/,
    );
    assert.ok(!existsSync(home.units));
  });
});

test('a unit someone else wrote is neither replaced nor removed', async () => {
  await inHome(async (home) => {
    mkdirSync(home.units, { recursive: true });
    const path = join(home.units, 'tributary-receive.service');
    writeFileSync(path, '[Service]\nExecStart=/usr/local/bin/scream -u\n');
    const install = await runCommand(receive, ['--install-unit', '-u']);
    assert.equal(install.status, 1);
    assert.match(install.stderr, /exists and was not written by this command/);
    const uninstall = await runCommand(receive, ['--uninstall-unit']);
    assert.equal(uninstall.status, 1);
    assert.equal(readFileSync(path, 'utf8'), '[Service]\nExecStart=/usr/local/bin/scream -u\n');
  });
});

test('--uninstall-unit removes the unit and the link enable made', async () => {
  await inHome(async (home) => {
    assert.equal((await runCommand(send, ['--install-unit', '-h', '10.0.0.2'])).status, 0);
    const path = join(home.units, 'tributary-send.service');
    const wants = join(home.units, 'default.target.wants');
    mkdirSync(wants);
    // What `systemctl --user enable` makes: an absolute link to the unit.
    symlinkSync(path, join(wants, 'tributary-send.service'));
    const res = await runCommand(send, ['--uninstall-unit']);
    assert.equal(res.status, 0, res.stderr);
    assert.ok(!existsSync(path));
    assert.deepEqual(readdirSync(wants), []);
    assert.match(
      res.stdout,
      /systemctl --user stop tributary-send\.service; systemctl --user daemon-reload/,
    );
    const none = await runCommand(send, ['--uninstall-unit']);
    assert.equal(none.status, 0);
    assert.match(none.stdout, /nothing to remove/);
  });
});

test("--help is the program's help, then the unit options", async () => {
  await inHome(async () => {
    const res = await runCommand(receive, ['--help']);
    assert.equal(res.status, 0);
    assert.match(res.stderr, /^ran .*tributary-receive\n$/, 'the program ran for its own help');
    assert.match(
      res.stdout,
      /--install-unit \[options\] +write ~\/\.config\/systemd\/user\/tributary-receive\.service/,
    );
    const sent = await runCommand(send, ['--help']);
    assert.match(sent.stdout, /--uninstall-unit +remove that unit/);
  });
});

test('the unit shown on the Linux receiver page is the one written', async () => {
  await inHome(async (home) => {
    const program = join(home.dir, 'tributary-receive');
    writeFileSync(program, '#!/bin/sh\n');
    chmodSync(program, 0o755);
    process.env.TRIBUTARY_RECEIVE_BIN = program;
    const printed = await runCommand(receive, ['--print-unit', '-u', '-p', '4010', '-t', '60']);
    assert.equal(printed.status, 0, printed.stderr);
    const page = readFileSync(
      new URL('../../../content/docs/linux-receiver.mdx', import.meta.url),
      'utf8',
    );
    const shown = /```ini\n(# Written by `tributary receive[\s\S]*?)```/.exec(page)?.[1];
    assert.equal(
      shown,
      printed.stdout.replace(program, '/home/pi/tributary/target/release/tributary-receive'),
    );
  });
});

test('a unit that would run a debug build says so', async () => {
  await inHome(async (home) => {
    const debug = join(home.dir, 'tributary', 'target', 'debug');
    mkdirSync(debug, { recursive: true });
    const program = join(debug, 'tributary-send');
    writeFileSync(program, '#!/bin/sh\n');
    chmodSync(program, 0o755);
    process.env.TRIBUTARY_SEND_BIN = program;
    const res = await runCommand(send, ['--install-unit', '-h', '10.0.0.2']);
    assert.equal(res.status, 0, res.stderr);
    assert.match(
      res.stdout,
      /That is a debug build: build the release one \(cargo build --release -p tributary-send\)\nand run this again/,
    );
  });
});
