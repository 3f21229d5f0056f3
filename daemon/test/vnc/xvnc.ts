// A real VNC server for tests: TigerVNC's Xvnc (Debian's tigervnc-standalone-server) on a free
// display and an ephemeral TCP port on 127.0.0.1, no password, with a solid-colour root window
// (xsetroot, from x11-xserver-utils) so a viewer can check what it shows.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Xvnc {
  readonly port: number;
  readonly display: string;
  stop(): Promise<void>;
}

/** Why Xvnc cannot run here, or null. */
export function xvncMissing(): string | null {
  for (const tool of ['Xvnc', 'xsetroot']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `env: ${tool} is not installed (tigervnc-standalone-server, x11-xserver-utils)`;
    }
  }
  return null;
}

/** A port nobody listens on now (bound to 0, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Starts Xvnc (`width`x`height`) with its root window painted `colour`. */
export async function startXvnc(width: number, height: number, colour: string): Promise<Xvnc> {
  let n = 40 + Math.floor(Math.random() * 400);
  while (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) n++;
  const display = `:${n}`;
  const port = await freePort();
  const child: ChildProcess = spawn(
    'Xvnc',
    [
      display,
      '-rfbport',
      String(port),
      '-localhost',
      '-SecurityTypes',
      'None',
      '-geometry',
      `${width}x${height}`,
      '-depth',
      '24',
      '-nolisten',
      'tcp',
      '-AlwaysShared',
    ],
    { stdio: 'ignore' },
  );
  const end = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`Xvnc ${display} did not start on port ${port}`);
    }
    await sleep(50);
  }
  execFileSync('xsetroot', ['-solid', colour], { env: { ...process.env, DISPLAY: display } });
  return {
    port,
    display,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
