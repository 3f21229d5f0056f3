// A real VNC server for tests: TigerVNC's Xvnc (Debian's tigervnc-standalone-server) on a free
// display and an ephemeral TCP port on 127.0.0.1, no password, with a solid-colour root window
// (xsetroot, from x11-xserver-utils) so a viewer can check what it shows; and xev (x11-utils) on
// its root window, to see the key events a viewer's keys become on that server.
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

/** One key event as the X server delivered it (xev's report). */
export interface XKeyEvent {
  readonly type: 'press' | 'release';
  readonly keysym: number;
  /** The keysym's name (space, Left, F4, Delete, Alt_L...). */
  readonly name: string;
  /** The modifier state when it happened (X11: 0x4 Control, 0x8 Mod1 = Alt). */
  readonly state: number;
}

export interface KeyWatch {
  readonly events: XKeyEvent[];
  stop(): void;
}

/** Why xev cannot run here, or null. */
export function xevMissing(): string | null {
  try {
    execFileSync('sh', ['-c', 'command -v xev'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'env: xev is not installed (x11-utils)';
  }
}

/** Records the key events of `display`'s root window (the keyboard's focus when no window has
 * it), from xev's report (unbuffered). xev says nothing until the first event, so a caller
 * makes sure it watches by sending keys until one shows. */
export async function watchKeys(display: string): Promise<KeyWatch> {
  const xev = ['xev', '-root', '-event', 'keyboard', '-display', display];
  const child = spawn('stdbuf', ['-o0', ...xev], { stdio: ['ignore', 'pipe', 'ignore'] });
  const events: XKeyEvent[] = [];
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    text += chunk;
    // Each event: "KeyPress event, ...\n    root ...\n    state 0x8, keycode 70 (keysym 0xffc1,
    // F4), same_screen YES," and then lines this does not need.
    const event =
      /Key(Press|Release) event[\s\S]*?state (0x[0-9a-f]+), keycode \d+ \(keysym (0x[0-9a-f]+), ([^)]+)\)/g;
    let consumed = 0;
    for (const m of text.matchAll(event)) {
      events.push({
        type: m[1] === 'Press' ? 'press' : 'release',
        keysym: Number(m[3]),
        name: m[4]!,
        state: Number(m[2]),
      });
      consumed = m.index + m[0].length;
    }
    text = text.slice(consumed);
  });
  await sleep(200);
  if (child.exitCode !== null) throw new Error(`xev could not watch ${display}`);
  return { events, stop: () => child.kill('SIGTERM') };
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
