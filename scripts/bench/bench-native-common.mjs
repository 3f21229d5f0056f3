// Helpers the native benchmark scripts share.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a command from the repository root; throws with its output when it fails. */
export function sh(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  if (res.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${res.status}):\n${res.stderr || res.stdout}`,
    );
  }
  return res;
}
