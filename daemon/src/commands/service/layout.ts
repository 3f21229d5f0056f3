// Where the pieces of a service install are: the program the unit starts (this checkout's
// launcher under the Node.js running the command, or the Debian package's /usr/bin/tributary),
// the unit template, and the system paths under a root (`/`, or the directory a test gives with
// --root, so tests never touch the real /etc).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVICE = 'tributary.service';
export const SERVICE_USER = 'tributary';
/** The service's configuration directory (the unit's StateDirectory=, CONFIG_PATH's folder). */
export const STATE_DIR = '/var/lib/tributary';
/** Where the Debian package installs the daemon (scripts/release/package/stage.mjs). */
export const PACKAGE_DIR = '/usr/lib/tributary';
/** Units the package ships; a unit in /etc/systemd/system would override it. */
export const PACKAGE_UNITS = ['/usr/lib/systemd/system', '/lib/systemd/system'];
/** The first line of every unit `service install` writes: `service uninstall` removes only those. */
export const WRITTEN_MARK = '# Written by `tributary service install`';

/** The daemon's folder (this file is dist/commands/service/ or src/commands/service/). */
const daemonDir = fileURLToPath(new URL('../../../', import.meta.url));

export interface Layout {
  /** `/`, or the alternate root every system path is under. */
  readonly root: string;
  /** True when this command runs from the Debian package's files. */
  readonly packaged: boolean;
  /** The Node.js that runs this command (real path): the one the unit starts. */
  readonly node: string;
  /** The committed launcher the unit runs (`daemon/bin/tributary.js`). */
  readonly launcher: string;
  /** The built program the launcher loads; the install refuses while it is missing. */
  readonly program: string;
  /** The unit the repository ships (daemon/systemd/tributary.service). */
  readonly template: string;
}

export function layout(root: string): Layout {
  return {
    root,
    packaged: daemonDir.startsWith(`${PACKAGE_DIR}/`),
    node: realpathSync(process.execPath),
    launcher: join(daemonDir, 'bin', 'tributary.js'),
    program: join(daemonDir, 'dist', 'cli.js'),
    template: join(daemonDir, 'systemd', SERVICE),
  };
}

/** A system path under the layout's root. */
export function under(where: Layout, path: string): string {
  return where.root === '/' ? path : join(where.root, path);
}

/** The unit file `service install` writes (it overrides a packaged one of the same name). */
export function unitPath(where: Layout): string {
  return under(where, `/etc/systemd/system/${SERVICE}`);
}

/** The packaged unit, when the Debian package installed one. */
export function packagedUnit(where: Layout): string | undefined {
  return PACKAGE_UNITS.map((dir) => under(where, `${dir}/${SERVICE}`)).find((p) => existsSync(p));
}

/** True when systemd runs as PID 1 of that root (what sd_booted(3) checks). */
export function systemdRuns(where: Layout): boolean {
  return existsSync(under(where, '/run/systemd/system'));
}

/**
 * The first folder on the way to `path` that a user who is neither its owner nor in its group
 * cannot enter (no execute bit for others), or undefined when the service user can reach it.
 */
export function unreachableBy(path: string): { dir: string; mode: number } | undefined {
  const parts = dirname(path).split(sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = `/${parts.slice(0, i).join('/')}`;
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) return { dir, mode };
  }
  if ((statSync(path).mode & 0o004) === 0) return { dir: path, mode: statSync(path).mode & 0o7777 };
  return undefined;
}

/** True when a path lies where ProtectHome=yes hides it (then the unit says read-only). */
export function inHomes(path: string): boolean {
  return ['/home/', '/root/', '/run/user/'].some((home) => path.startsWith(home));
}
