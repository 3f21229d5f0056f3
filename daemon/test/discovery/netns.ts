// Runs a discovery scenario inside a network namespace of its own (`unshare -n`, with a mount
// namespace too when it needs a private /run/avahi-daemon): loopback up, multicast on, and
// 224.0.0.0/4 routed to it, so SAP and mDNS peers (the daemon, ffmpeg, PulseAudio, Avahi) talk
// on well-known ports without touching the machine's network or other tests. The scenario
// (scenarios/NAME.ts) prints `RESULT {json}`; every process it starts is in the namespace's
// process group and is killed with it.
import { spawn, spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

const runner = fileURLToPath(new URL('./scenarios/run.ts', import.meta.url));

const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why namespace scenarios cannot run here (null: they can). */
export function namespaceUnavailable(tools: readonly string[] = []): string | null {
  if (process.getuid?.() !== 0) return 'env: needs root for unshare -n (run the tests as root)';
  for (const tool of ['unshare', 'ip', ...tools]) {
    if (!have(tool)) return `env: ${tool} is not installed`;
  }
  return null;
}

const SETUP = [
  'ip link set lo up',
  'ip link set lo multicast on',
  'ip route add 224.0.0.0/4 dev lo',
  // A second interface (a veth pair) gives mDNS a non-loopback address to publish in A records;
  // only the mDNS scenario needs it (and says so if the kernel has no veth).
  '{ ip link add tr0 type veth peer name tr1 && ip addr add 10.77.0.1/24 dev tr0 && ' +
    'ip addr add 10.77.0.2/24 dev tr1 && ip link set tr0 up && ip link set tr1 up || true; }',
].join(' && ');

export interface ScenarioRun<R> {
  readonly result: R;
  readonly output: string;
}

/** Runs scenarios/NAME.ts in a fresh namespace; resolves with its RESULT, rejects with its output. */
export async function inNamespace<R>(
  t: TestContext,
  name: string,
  options: { mount?: boolean; timeoutMs?: number } = {},
): Promise<ScenarioRun<R>> {
  const unshare = ['-n', ...(options.mount ? ['-m', '--propagation', 'private'] : [])];
  const child = spawn(
    'unshare',
    [
      ...unshare,
      '--',
      'sh',
      '-c',
      `${SETUP} && exec "$0" "$@"`,
      process.execPath,
      '--import',
      'tsx',
      runner,
      name,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    },
  );
  let output = '';
  child.stdout.on('data', (c) => {
    output += c;
  });
  child.stderr.on('data', (c) => {
    output += c;
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  };
  t.after(killGroup);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      output += `\n(scenario ${name} timed out after ${timeoutMs / 1000} s)`;
      killGroup();
    }, timeoutMs);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  killGroup();
  const line = output.split('\n').find((l) => l.startsWith('RESULT '));
  if (code !== 0 || !line) {
    throw new Error(`scenario ${name} failed (exit ${code}):\n${output.slice(-6000)}`);
  }
  return { result: JSON.parse(line.slice('RESULT '.length)) as R, output };
}
