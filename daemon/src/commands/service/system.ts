// The system programs a service install runs: systemd-sysusers for the service user, systemctl
// for the unit. Under an alternate root (--root) both work on that directory offline
// (`--root=DIR`), and nothing is started or stopped.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Layout, SERVICE_USER, STATE_DIR } from './layout.js';

export interface Account {
  readonly uid: number;
  readonly gid: number;
  readonly home: string;
}

/** The account `name` in /etc/passwd under `root`, if there is one. */
export function account(root: string, name: string): Account | undefined {
  let text: string;
  try {
    text = readFileSync(root === '/' ? '/etc/passwd' : `${root}/etc/passwd`, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid, , home] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) {
      return { uid: Number(uid), gid: Number(gid), home: home ?? '' };
    }
  }
  return undefined;
}

export interface RunResult {
  readonly ok: boolean;
  /** The command as a user would type it, for the report. */
  readonly command: string;
  readonly output: string;
}

function run(program: string, args: string[]): RunResult {
  const res = spawnSync(program, args, { encoding: 'utf8' });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? res.error.message : ''}`;
  return { ok: res.status === 0, command: [program, ...args].join(' '), output: output.trim() };
}

const rootFlag = (where: Layout) => (where.root === '/' ? [] : [`--root=${where.root}`]);

/** Makes the system user `tributary` (and its group) unless it exists: systemd-sysusers. */
export function ensureServiceUser(where: Layout): { account: Account; created: boolean } {
  const existing = account(where.root, SERVICE_USER);
  if (existing) return { account: existing, created: false };
  const line = `u ${SERVICE_USER} - "Tributary network audio router" ${STATE_DIR} /usr/sbin/nologin`;
  const res = run('systemd-sysusers', [...rootFlag(where), '--inline', line]);
  const made = account(where.root, SERVICE_USER);
  if (!res.ok || !made) {
    throw new Error(
      `could not create the system user ${SERVICE_USER}: ${res.command}: ${res.output}`,
    );
  }
  return { account: made, created: true };
}

/** systemctl on the root (offline with --root=DIR). */
export function systemctl(where: Layout, ...args: string[]): RunResult {
  return run('systemctl', [...rootFlag(where), ...args]);
}
