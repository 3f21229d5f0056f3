// The daemon's file helpers, in one place (the configuration store and the certificate use
// them). Durable file replacement: a kill -9 or power cut at any instant leaves either the old
// or the new file, never a torn one, and once `writeFileAtomic` resolves the new content is on
// disk; reading a file that may not exist; keeping a damaged file aside.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to a temporary file beside `path`, fsyncs it, renames it over `path`, fsyncs the
 * directory. The file keeps its permissions; a new one gets `newFileMode`. When `beforeRename`
 * answers false the temporary file is removed, `path` is left alone and the result is false.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
  newFileMode = 0o644,
  beforeRename: () => Promise<boolean> = async () => true,
  durable = true,
): Promise<boolean> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => newFileMode,
  );
  const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    try {
      await file.writeFile(text, 'utf8');
      if (durable) await file.sync();
    } finally {
      await file.close();
    }
    if (!(await beforeRename())) {
      await unlink(temp);
      return false;
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
  if (durable) await syncDirectory(dir);
  return true;
}

/** `.config.yaml.<pid>.<hex>.tmp`: a temporary file `writeFileAtomic` made for `config.yaml`. */
function temporaryOf(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${escaped}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false; // ours from an earlier life (a container's pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a killed daemon left beside `path` (kill -9 or a power cut
 * between creating one and renaming it): those of a process that no longer runs. Call at
 * start, before this process writes any. Returns the names removed.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const pattern = temporaryOf(basename(path));
  const removed: string[] = [];
  for (const name of await readdir(dirname(path)).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || isRunning(pid)) continue;
    await unlink(join(dirname(path), name)).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}

/**
 * Makes a rename or a new file in `dir` durable. File systems that cannot fsync a directory
 * (some network and FUSE mounts answer EINVAL) make their renames durable their own way.
 */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR') throw err;
  } finally {
    await handle.close();
  }
}

/** The file's text, or null when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Moves a file out of the way without deleting it (`config.yaml` ->
 * `config.yaml.rejected-2025-01-31T10-00-00Z`) and returns the new path.
 */
export async function keepAside(path: string, why: string, now = new Date()): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  let target = `${path}.${why}-${stamp}`;
  for (let n = 2; await exists(target); n++) target = `${path}.${why}-${stamp}-${n}`;
  await rename(path, target);
  await syncDirectory(dirname(path));
  return target;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
