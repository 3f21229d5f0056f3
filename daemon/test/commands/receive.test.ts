// `tributary receive` runs the receiver program (native/receive, `tributary-receive`) with the
// same arguments: its output and exit code come through, and SIGTERM to `tributary` stops it
// cleanly. Real processes: the CLI under Node, the Rust program `cargo test` built, and for the
// signal a PulseAudio of the test's own with a null sink. What the receiver plays is tested in
// native/receive/tests (a tone recorded from the null sink).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { receiverProgram, run } from '../../src/commands/receive.js';
import { cli } from '../daemon-process.js';
import { runCommand } from '../helpers.js';
import { freeUdpPort, noPulse, startPulse } from './pulse-server.js';

const program = receiverProgram({});
const notBuilt = program ? false : 'env: tributary-receive is not built (cargo test builds it)';

const spawnCli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, 'receive', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 20_000,
  });

test('tributary receive passes its arguments, output and exit code through', {
  skip: notBuilt,
}, async () => {
  const help = spawnCli(['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: tributary receive \[options\]/);
  assert.match(help.stdout, /-t MS +target latency/);

  const bad = spawnCli(['-t', '5']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'tributary receive: -t 5: milliseconds, 10-2000\n');

  const server = `unix:${join(tmpdir(), `no-pulse-${process.pid}`, 'native')}`;
  const port = String(await freeUdpPort());
  const missing = spawnCli(['-u', '-p', port], { PULSE_SERVER: server });
  assert.equal(missing.status, 1);
  assert.match(
    missing.stderr,
    new RegExp(`cannot play on PulseAudio \\(${server}\\): Connection refused`),
  );
});

test('without the receiver program it says it cannot run it', async () => {
  const saved = process.env.TRIBUTARY_RECEIVE_BIN;
  process.env.TRIBUTARY_RECEIVE_BIN = join(tmpdir(), `no-receiver-${process.pid}`);
  try {
    const result = await runCommand(run, ['-u']);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^tributary receive: cannot run .*no-receiver-\d+: spawn .* ENOENT\n$/,
    );
  } finally {
    if (saved === undefined) delete process.env.TRIBUTARY_RECEIVE_BIN;
    else process.env.TRIBUTARY_RECEIVE_BIN = saved;
  }
});

test('SIGTERM to tributary receive stops the receiver cleanly', {
  skip: notBuilt || noPulse,
}, async (t) => {
  let receiver: ChildProcess | undefined;
  t.after(() => receiver?.kill('SIGKILL'));
  const server = await startPulse(t, 'receive');

  const port = String(await freeUdpPort());
  receiver = spawn(
    process.execPath,
    // Not advertised over mDNS: this test runs on the machine's network (advertising is tested
    // in a namespace, test/discovery/netns-receiver.test.ts).
    ['--import', 'tsx', cli, 'receive', '--no-advertise', '-u', '-p', port, '-s', 'out'],
    {
      env: { ...process.env, PULSE_SERVER: server },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  receiver.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  for (let i = 0; i < 200 && !stderr.includes('listening for'); i++) await sleep(50);
  assert.match(stderr, new RegExp(`listening for Scream on 0\\.0\\.0\\.0:${port} \\(unicast\\)`));
  const exited = new Promise<number | null>((resolve) => receiver?.on('close', resolve));
  receiver.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(5000).then(() => 'timeout' as const)]);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /receive: stopped\n$/);
});
