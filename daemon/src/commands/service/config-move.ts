// Bringing a user's configuration (~/.config/tributary: config.yaml, equalizers.yaml, the
// certificate) to the service's directory, owned by the service user, so the service plays what
// the user set up by hand. Nothing already there is overwritten.
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Account, account } from './system.js';

export type Choice = 'move' | 'copy' | 'leave';

/**
 * The user's configuration folder: `--from`, else that of the user who ran sudo (sudo gives root's
 * HOME), else this user's ($XDG_CONFIG_HOME/tributary, ~/.config/tributary).
 */
export function userConfigDir(from: string | undefined, env = process.env): string {
  if (from) return from;
  const sudoUser = env.SUDO_USER;
  if (sudoUser && sudoUser !== 'root') {
    const home = account('/', sudoUser)?.home;
    if (home) return join(home, '.config', 'tributary');
  }
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'tributary');
}

export type ConfigState =
  /** No config.yaml there: the service starts from the built-in defaults. */
  | 'none'
  /** The service's directory already has a config.yaml: kept, nothing is brought. */
  | 'service-has-one'
  /** There is one to bring. */
  | 'ready';

export function configState(from: string, to: string): ConfigState {
  if (!existsSync(join(from, 'config.yaml'))) return 'none';
  if (existsSync(join(to, 'config.yaml'))) return 'service-has-one';
  return 'ready';
}

/** Temporary files of an interrupted save (`.config.yaml.PID.HEX.tmp`): not worth bringing. */
const isTemporary = (name: string) => /^\..*\.\d+\.[0-9a-f]+\.tmp$/.test(name);

function chownTree(dir: string, owner: Account): void {
  chownSync(dir, owner.uid, owner.gid);
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    lchownSync(join(dir, name), owner.uid, owner.gid);
  }
}

/**
 * Copies (or moves) the files of `from` into `to` (made 0750 if missing), all owned by `owner`;
 * returns the names brought. A move removes `from` only once every file is in place.
 */
export function bringConfig(from: string, to: string, choice: 'move' | 'copy', owner: Account) {
  mkdirSync(to, { recursive: true, mode: 0o750 });
  chmodSync(to, 0o750);
  const brought: string[] = [];
  const kept: string[] = [];
  for (const name of readdirSync(from)
    .filter((n) => !isTemporary(n))
    .sort()) {
    const target = join(to, name);
    if (existsSync(target)) {
      kept.push(name);
      continue;
    }
    cpSync(join(from, name), target, { recursive: true, preserveTimestamps: true });
    brought.push(name);
  }
  chownTree(to, owner);
  // A move leaves nothing behind only when nothing was kept aside in `to` instead.
  if (choice === 'move' && kept.length === 0) rmSync(from, { recursive: true, force: true });
  return { brought, kept };
}
