// `tributary send` runs the sender program (native/send, `tributary-send`) with the same
// arguments: its output and exit code come through, and SIGTERM to `tributary` stops it cleanly.
// Real processes: the CLI under Node, the Rust program `cargo test` built, a PulseAudio of the
// test's own with a null sink whose monitor it captures, and a UDP socket on 127.0.0.1 that
// receives what it sends. What it sends (level, pitch, numbering, pacing) is tested in
// native/send/tests.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { run, senderProgram } from '../../src/commands/send.js';
import { cli } from '../daemon-process.js';
import { runCommand } from '../helpers.js';
import { noPulse, startPulse } from './pulse-server.js';

const program = senderProgram({});
const notBuilt = program ? false : 'env: tributary-send is not built (cargo test builds it)';

const spawnCli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, 'send', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 20_000,
  });

test('tributary send passes its arguments, output and exit code through', {
  skip: notBuilt,
}, () => {
  const help = spawnCli(['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: tributary send -h HOST \[options\]/);
  assert.match(help.stdout, /-P, --protocol PROTO +rtp/);

  const bad = spawnCli(['-h', '127.0.0.1', '-P', 'tcp']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'tributary send: -P tcp: the protocol is rtp or scream\n');

  const server = `unix:${join(tmpdir(), `no-pulse-${process.pid}`, 'native')}`;
  const missing = spawnCli(['-h', '127.0.0.1'], { PULSE_SERVER: server });
  assert.equal(missing.status, 1);
  assert.match(
    missing.stderr,
    new RegExp(
      `cannot capture from PulseAudio \\(${server}, source the default\\): Connection refused`,
    ),
  );
});

test('without the sender program it says it cannot run it', async () => {
  const saved = process.env.TRIBUTARY_SEND_BIN;
  process.env.TRIBUTARY_SEND_BIN = join(tmpdir(), `no-sender-${process.pid}`);
  try {
    const result = await runCommand(run, ['-h', '127.0.0.1']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^tributary send: cannot run .*no-sender-\d+: spawn .* ENOENT\n$/);
  } finally {
    if (saved === undefined) delete process.env.TRIBUTARY_SEND_BIN;
    else process.env.TRIBUTARY_SEND_BIN = saved;
  }
});

test('tributary send sends RTP from a monitor and stops cleanly on SIGTERM', {
  skip: notBuilt || noPulse,
}, async (t) => {
  let sender: ChildProcess | undefined;
  const socket = createSocket('udp4');
  t.after(() => {
    sender?.kill('SIGKILL');
    socket.close();
  });
  const server = await startPulse(t, 'send');
  const packets: Buffer[] = [];
  socket.on('message', (msg) => packets.push(msg));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = String(socket.address().port);

  sender = spawn(
    process.execPath,
    // No SAP: this test runs on the machine's network (SAP is tested in a namespace).
    [
      '--import',
      'tsx',
      cli,
      'send',
      '--no-sap',
      '-h',
      '127.0.0.1',
      '-p',
      port,
      '-d',
      'out.monitor',
    ],
    { env: { ...process.env, PULSE_SERVER: server }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  sender.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A PulseAudio started moments ago delivers nothing from a monitor for about a second.
  for (let i = 0; i < 200 && packets.length < 10; i++) await sleep(50);
  assert.match(
    stderr,
    new RegExp(`sending RTP L16 \\(payload type 127\\) 48000 Hz 2 ch to 127\\.0\\.0\\.1:${port}`),
  );
  assert.ok(packets.length >= 10, `${packets.length} packets arrived`);
  const [first] = packets;
  assert.equal(first?.length, 12 + 1152, 'an RTP header and 1152 bytes of L16');
  assert.equal(first?.[0], 0x80, 'RTP version 2');
  assert.equal(first?.[1], 0x80 | 127, 'the marker and payload type 127 on the first packet');

  const exited = new Promise<number | null>((resolve) => sender?.on('close', resolve));
  sender.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(5000).then(() => 'timeout' as const)]);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /send: stopped\n$/);
});
