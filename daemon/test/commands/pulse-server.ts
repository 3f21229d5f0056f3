// A PulseAudio of a test's own for the Linux endpoint commands' tests (receive, send): a private
// native socket in a temporary folder with a null sink `out`, as the team guide runs it (`-n -F
// FILE.pa`, never exits by itself, `--system=false` as root); stopped and removed after the test.
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** `false`, or why a test needing PulseAudio is skipped. */
export const noPulse =
  spawnSync('sh', ['-c', 'command -v pulseaudio']).status === 0
    ? false
    : 'env: needs PulseAudio (Debian: pulseaudio)';

/** Starts one for test `t` (or a scenario's lab, through its `after`); resolves to its
 * `PULSE_SERVER` value once its socket is there. */
export async function startPulse(
  t: { after(fn: () => void): unknown },
  name: string,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `trib-${name}-`));
  const socket = join(dir, 'native');
  writeFileSync(
    join(dir, 'pa.pa'),
    `load-module module-native-protocol-unix auth-anonymous=1 socket=${socket}\n` +
      'load-module module-null-sink sink_name=out\n',
  );
  const pulse = spawn(
    'pulseaudio',
    ['-n', '-F', join(dir, 'pa.pa'), '--exit-idle-time=-1', '--disallow-exit', '--system=false'],
    { env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir }, stdio: 'ignore' },
  );
  t.after(() => {
    pulse.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 200 && !existsSync(socket); i++) await sleep(50);
  if (!existsSync(socket)) throw new Error('PulseAudio did not start');
  return `unix:${socket}`;
}

/** A UDP port on 127.0.0.1 nothing listens on now. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  socket.close();
  return port;
}
