import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { version } from '../src/version.js';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });

test('tributary --version prints the package version', () => {
  const res = run('--version');
  assert.equal(res.status, 0);
  assert.equal(res.stdout.trim(), version);
});

test('tributary --help lists the commands and exits 0', () => {
  const res = run('--help');
  assert.equal(res.status, 0);
  assert.match(res.stdout, /Usage: tributary <command>/);
  assert.match(res.stdout, /serve/);
});

test('an unknown command or option exits 2 with a message on stderr', () => {
  const cmd = run('frobnicate');
  assert.equal(cmd.status, 2);
  assert.match(cmd.stderr, /unknown command 'frobnicate'/);
  const opt = run('--nope');
  assert.equal(opt.status, 2);
  assert.match(opt.stderr, /--nope/);
});

async function waitForListening(child: ChildProcess): Promise<string> {
  let seen = '';
  for await (const chunk of child.stdout!) {
    seen += chunk;
    const m = /"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(seen);
    if (m) return m[1]!;
  }
  throw new Error(`daemon exited before listening:\n${seen}`);
}

test('tributary serve answers HTTP and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
    env: { ...process.env, API_HOST: '127.0.0.1', HTTP_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const base = await waitForListening(child);
    const res = await fetch(`${base}/api/health`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { status: string }).status, 'ok');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    child.kill('SIGKILL');
  }
});
