// A throwaway copy of this machine's root to install packages into: an overlay of `/` whose
// changes land in a folder of their own (the "upper" layer), mounted in a private mount
// namespace and entered with chroot. dpkg, adduser and the maintainer scripts run as they would
// on the machine, against its real package database, while nothing on the machine changes. What
// a step left behind is exactly the upper layer's content, so "nothing left" is checked on it.
// Needs root, unshare and chroot (util-linux, coreutils) and overlayfs.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Mounts the overlay, the kernel's file systems and a fresh /run (no /run/systemd/system: the
 * copy has no running systemd, so postinst enables but does not start), binds `share` on /mnt,
 * then runs `command` in the chroot. Every `exec` keeps one process: a signal to the spawned
 * process reaches the program the command runs.
 */
function enter(base, share) {
  const merged = join(base, 'merged');
  return [
    'set -e',
    `mount -t overlay overlay -o lowerdir=/,upperdir=${base}/upper,workdir=${base}/work ${merged}`,
    `mount -t proc proc ${merged}/proc`,
    `mount --rbind /dev ${merged}/dev`,
    `mount --rbind /sys ${merged}/sys`,
    `mount -t tmpfs tmpfs ${merged}/run`,
    `mount --bind ${share} ${merged}/mnt`,
    `exec chroot ${merged} /bin/sh -c "$0"`,
  ].join('\n');
}

const environment = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
  DEBIAN_FRONTEND: 'noninteractive',
};

export function canMakeThrowawayRoot() {
  if (process.getuid?.() !== 0) return 'env: needs root (mount namespaces, chroot, dpkg)';
  const probe = spawnSync('unshare', ['--mount', 'true']);
  if (probe.status !== 0) return `env: unshare --mount fails: ${probe.stderr}`;
  return false;
}

/** A throwaway root; `share` (a folder of this machine) appears in it as /mnt. */
export function throwawayRoot(share) {
  const base = mkdtempSync('/var/tmp/tributary-root-');
  for (const dir of ['upper', 'work', 'merged']) mkdirSync(join(base, dir));
  const args = (command) => [
    '--mount',
    '--propagation',
    'private',
    '/bin/sh',
    '-c',
    enter(base, share),
    command,
  ];
  return {
    /** Where a path of the root is on this machine once a command changed it. */
    changed: (path) => join(base, 'upper', path),
    /** Runs a shell command in the root; resolves to its status and output. */
    run(command) {
      const res = spawnSync('unshare', args(command), { encoding: 'utf8', env: environment });
      return { status: res.status, stdout: res.stdout, stderr: res.stderr };
    },
    /** Starts a long-running command in the root (a daemon); a signal reaches it. */
    start(command, env = {}) {
      return spawn('unshare', args(command), {
        env: { ...environment, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    },
    /**
     * What the root holds beyond this machine: files and links changed or added (`path`), files
     * deleted (`-path`, overlay whiteouts) and folders that do not exist on the machine
     * (`path/`). Folders that exist on the machine and only hold changes are not listed.
     */
    changes() {
      const upper = join(base, 'upper');
      const out = [];
      for (const path of readdirSync(upper, { recursive: true, encoding: 'utf8' })) {
        const s = lstatSync(join(upper, path));
        if (s.isCharacterDevice() && s.rdev === 0) out.push(`-${path}`);
        else if (!s.isDirectory()) out.push(path);
        else if (!exists(`/${path}`)) out.push(`${path}/`);
      }
      return out.sort();
    },
    /** Deletes the upper layer: the mounts went with their namespace when each command ended. */
    remove() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
