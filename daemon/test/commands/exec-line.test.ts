// The ExecStart= line of the endpoints' user units: any argv written by execLine() reads back,
// under systemd's own rules (specifiers, quoting, C escapes, variables), as exactly that argv,
// and what systemd would misread is refused. The reader is strict (a specifier or a variable is
// an error), so a word written without its escapes fails here rather than reading back changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { execLine, execWord, parseExecLine } from '../../src/commands/user-unit/exec-line.js';

const hostile = [
  ['-n', 'Living room'],
  ['-n', 'say "hi"', '-s', "it's"],
  ['-d', 'C:\\audio\\in', '-n', 'trailing\\'],
  ['-n', '100% %h %n %%'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${USER} is the point
  ['-n', '$HOME ${USER} $$ $', '-s', 'cost$5'],
  ['-n', ';', '-s', 'a;b', '-d', '; rm -rf ~'],
  ['-n', '`id` $(id) && | > <', '-s', '#not a comment'],
  ['-n', 'Küche 🎵', '-s', '"\'\\%$'],
  ['-h', '192.168.1.10', '-p', '40000', '-v'],
];

test('every argv reads back exactly as systemd would split it', () => {
  for (const args of hostile) {
    const line = execLine('/opt/tributary/target/release/tributary-send', args);
    assert.deepEqual(
      parseExecLine(line),
      ['/opt/tributary/target/release/tributary-send', ...args],
      line,
    );
  }
  const spaced = '/home/ann/my 100% audio/tributary-receive';
  assert.deepEqual(parseExecLine(execLine(spaced, ['-u'])), [spaced, '-u']);
});

test('the written words: plain ones bare, the rest quoted with % and $ doubled', () => {
  assert.equal(execWord('-u'), '-u');
  assert.equal(
    execWord('alsa_input.usb-Device-00.analog-stereo'),
    'alsa_input.usb-Device-00.analog-stereo',
  );
  assert.equal(execWord('Living room'), '"Living room"');
  assert.equal(execWord('100%'), '"100%%"');
  assert.equal(execWord('$HOME'), '"$$HOME"');
  assert.equal(execWord('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(execWord(';'), '";"');
  assert.equal(
    execLine('/usr/bin/tributary-receive', ['-u', '-n', 'Pi 100%']),
    '/usr/bin/tributary-receive -u -n "Pi 100%%"',
  );
});

test('what a unit cannot hold is refused with the reason', () => {
  assert.throws(() => execWord(''), /an empty argument/);
  assert.throws(() => execWord('two\nlines'), /control character \(0x0a\)/);
  assert.throws(() => execWord('tab\there'), /control character \(0x09\)/);
  assert.throws(() => execWord('\u007f'), /control character \(0x7f\)/);
  assert.throws(() => execWord('half \ud800'), /not valid Unicode/);
  assert.throws(() => execLine('tributary-receive', []), /must be absolute/);
  assert.throws(() => execLine('/opt/$HOME/tributary-receive', []), /'\$' in the program's path/);
});

test('the reader refuses what would not read back literally', () => {
  assert.throws(() => parseExecLine('/bin/x -n %h'), /specifier %h/);
  assert.throws(() => parseExecLine('/bin/x -n $HOME'), /variable \$HOME/);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: systemd's ${USER}, not JavaScript's
  assert.throws(() => parseExecLine('/bin/x -n "a${USER}b"'), /variable \$\{USER\}/);
  assert.throws(() => parseExecLine('/bin/x -n "open'), /unbalanced quotes/);
  assert.throws(() => parseExecLine('/bin/x -u ; /bin/y'), /second command/);
  // systemd's escapes and quoting, read as systemd reads them.
  assert.deepEqual(parseExecLine(`/bin/x a"b c"d 'e f' \\x41\\s\\101 "\\u00fc"`), [
    '/bin/x',
    'ab cd',
    'e f',
    'A A',
    'ü',
  ]);
});

// systemd-analyze from the Debian package checks a unit without a running systemd when it has a
// runtime directory of its own: a naive line (the argv joined with spaces) fails its check, ours
// passes.
const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
test('systemd-analyze verify --user accepts the line and rejects a naive one', {
  skip: analyze ? false : 'env: systemd-analyze is not installed',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'exec-line-'));
  try {
    const program = join(dir, 'my bin', 'tributary-receive');
    mkdirSync(join(dir, 'my bin'));
    writeFileSync(program, '#!/bin/sh\nexit 0\n');
    chmodSync(program, 0o755);
    mkdirSync(join(dir, 'run'), { mode: 0o700 });
    const verify = (exec: string) => {
      const unit = join(dir, 'check.service');
      writeFileSync(unit, `[Unit]\nDescription=check\n[Service]\nExecStart=${exec}\n`);
      return spawnSync('systemd-analyze', ['verify', '--user', unit], {
        encoding: 'utf8',
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_RUNTIME_DIR: join(dir, 'run') },
      });
    };
    for (const args of hostile) {
      const ok = verify(execLine(program, args));
      assert.equal(ok.status, 0, `${args.join(' ')}: ${ok.stderr}`);
    }
    const plain = join(dir, 'tributary-send');
    writeFileSync(plain, '#!/bin/sh\nexit 0\n');
    chmodSync(plain, 0o755);
    const quotes = verify(`${plain} ${['-n', 'say "hi', '-s', "it's"].join(' ')}`);
    assert.equal(quotes.status, 1);
    assert.match(quotes.stderr, /Unbalanced quoting/);
    const percent = verify(`${plain} -n 100%z`);
    assert.equal(percent.status, 1);
    assert.match(percent.stderr, /Failed to resolve unit specifiers/);
    assert.equal(verify(execLine(plain, ['-n', 'say "hi', '-s', "it's", '100%z'])).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
