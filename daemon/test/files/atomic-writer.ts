// The child process of the kill test in atomic-file.test.ts. It replaces PATH with the text of
// NEW_TEXT_FILE, through writeFileAtomic or (MODE "plain", the control) a plain
// open-write-close. Before every file-system call, and halfway through writing the data, it
// prints "step NAME" and waits for a line on stdin, so the test can SIGKILL it at exactly that
// point; "done" when the write returned.
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { createInterface } from 'node:readline';

const [mode, path, newTextFile] = process.argv.slice(2) as [string, string, string];
const text = await fsp.readFile(newTextFile, 'utf8');

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function step(name: string): Promise<void> {
  process.stdout.write(`step ${name}\n`);
  await lines.next();
}

// Every call writeFileAtomic makes, and the file handle methods it uses, announce themselves.
type Fn = (...args: never[]) => Promise<unknown>;
const announce = (target: Record<string, unknown>, name: string, label = name) => {
  const original = target[name] as Fn;
  target[name] = async function (this: unknown, ...args: never[]) {
    await step(label);
    return original.apply(this, args);
  };
};
const probe = await fsp.open(process.execPath, 'r');
const handle = Object.getPrototypeOf(probe) as Record<string, unknown>;
await probe.close();
const fsCalls = fsp as unknown as Record<string, unknown>;
for (const name of ['rename', 'unlink']) announce(fsCalls, name);
// A handle's close is its own property, not the prototype's: wrapped on each opened handle.
const open = fsp.open;
fsCalls.open = async (...args: Parameters<typeof open>) => {
  await step('open');
  const file = await open(...args);
  announce(file as unknown as Record<string, unknown>, 'close', 'handle.close');
  return file;
};
syncBuiltinESMExports();
announce(handle, 'sync', 'handle.sync');
// writeFile in two halves, with a step between them: a kill mid-write.
handle.writeFile = async function (this: fsp.FileHandle, data: string) {
  await step('handle.writeFile');
  const bytes = Buffer.from(data);
  const half = bytes.length >> 1;
  await this.write(bytes.subarray(0, half));
  await step('handle.writeFile (half written)');
  await this.write(bytes.subarray(half));
};

if (mode === 'plain') {
  const file = await fsp.open(path, 'w');
  await file.writeFile(text);
  await file.close();
} else {
  const { writeFileAtomic } = await import('../../src/files.js');
  await writeFileAtomic(path, text);
}
process.stdout.write('done\n');
process.exit(0);
