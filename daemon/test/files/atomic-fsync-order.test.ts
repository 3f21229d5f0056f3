// The durability promise of writeFileAtomic, observed in the system calls themselves: under
// strace, the temporary file's data is fsynced before it is renamed over the file, and the
// directory is fsynced after the rename (the kill tests in atomic-file.test.ts cannot tell a
// missing fsync apart: a killed process loses nothing the kernel holds, only a power cut does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers.js';

const files = fileURLToPath(new URL('../../src/files.ts', import.meta.url));
const strace = spawnSync('sh', ['-c', 'command -v strace']).status === 0;

type Event = { op: 'fsync'; path: string } | { op: 'rename'; from: string; to: string };

/** The fsyncs (by the path their descriptor was opened on) and renames of an `strace -f` log. */
function syncsAndRenames(log: string): Event[] {
  const events: Event[] = [];
  const fds = new Map<string, string>();
  const opening = new Map<string, string>();
  for (const line of log.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, pid, call] = m as unknown as [string, string, string];
    const open = /^openat\(AT_FDCWD, "([^"]+)",.*?(?:\) = (\d+)|<unfinished \.\.\.>)$/.exec(call);
    if (open?.[2]) fds.set(open[2], open[1]!);
    else if (open) opening.set(pid, open[1]!);
    const resumed = /^<\.\.\. openat resumed>.*= (\d+)$/.exec(call);
    if (resumed && opening.has(pid)) fds.set(resumed[1]!, opening.get(pid)!);
    const sync = /^f(?:data)?sync\((\d+)/.exec(call);
    if (sync) events.push({ op: 'fsync', path: fds.get(sync[1]!) ?? `fd ${sync[1]}` });
    const close = /^close\((\d+)/.exec(call);
    if (close) fds.delete(close[1]!);
    const rename = /^rename(?:at2?)?\((?:AT_FDCWD, )?"([^"]+)", (?:AT_FDCWD, )?"([^"]+)"/.exec(
      call,
    );
    if (rename) events.push({ op: 'rename', from: rename[1]!, to: rename[2]! });
  }
  return events;
}

test('writeFileAtomic fsyncs the data, then renames, then fsyncs the directory (strace)', {
  skip: !strace && 'env: strace is not installed',
}, (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.yaml');
  const log = join(dir, 'strace.log');
  const script = `const { writeFileAtomic } = await import(${JSON.stringify(files)});
    await writeFileAtomic(${JSON.stringify(path)}, 'sinks: []\\n');`;
  const trace = 'trace=openat,close,fsync,fdatasync,rename,renameat,renameat2';
  const run = spawnSync(
    'strace',
    ['-f', '-qq', '-e', trace, '-o', log, process.execPath, '--import', 'tsx'],
    { input: script, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(readFileSync(path, 'utf8'), 'sinks: []\n');
  const mine = syncsAndRenames(readFileSync(log, 'utf8')).filter((e) =>
    e.op === 'rename' ? e.to === path : e.path.startsWith(dir),
  );
  const temp = mine.find((e) => e.op === 'rename')?.from ?? '(no rename)';
  assert.match(temp, /\/\.config\.yaml\.\d+\.[0-9a-f]+\.tmp$/);
  assert.deepEqual(mine, [
    { op: 'fsync', path: temp },
    { op: 'rename', from: temp, to: path },
    { op: 'fsync', path: dir },
  ]);
});

test('the strace reader follows descriptors across threads and unfinished calls', () => {
  const log = [
    '10 openat(AT_FDCWD, "/d/.f.tmp", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0644 <unfinished ...>',
    '11 openat(AT_FDCWD, "/other", O_RDONLY) = 22',
    '10 <... openat resumed>) = 21',
    '12 fsync(21 <unfinished ...>',
    '12 <... fsync resumed>) = 0',
    '12 close(21) = 0',
    '13 rename("/d/.f.tmp", "/d/f") = 0',
    '13 openat(AT_FDCWD, "/d", O_RDONLY|O_CLOEXEC) = 21',
    '14 fdatasync(21) = 0',
  ].join('\n');
  assert.deepEqual(syncsAndRenames(log), [
    { op: 'fsync', path: '/d/.f.tmp' },
    { op: 'rename', from: '/d/.f.tmp', to: '/d/f' },
    { op: 'fsync', path: '/d' },
  ]);
});
