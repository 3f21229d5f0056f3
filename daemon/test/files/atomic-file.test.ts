// writeFileAtomic on its own: what is on disk at the moment before the rename, what is left when
// a step fails, and what a process killed at many points during writes leaves behind (always the
// old or the new document; the same sweep over plain writeFile tears files, so it reaches inside
// writes).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { configText, parseConfigText } from '../../src/config/documents.js';
import { writeFileAtomic } from '../../src/files.js';
import { tempDir } from '../helpers.js';

/** A valid config.yaml, as the daemon writes it, with `sinks` sinks whose volumes follow `seed`. */
function documentText(sinks: number, seed: number): string {
  const entries = Array.from(
    { length: sinks },
    (_, i) =>
      `  - { name: Sink ${i}, ip: 10.0.${i >> 8}.${i & 255}, volume: ${((i * 7 + seed) % 100) / 100} }\n`,
  );
  const { value } = parseConfigText(`sinks:\n${entries.join('')}sources: []\nroutes: []\n`, 'x');
  return configText(value, seed);
}

const tempFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

test('before the rename the old file is intact and the temporary file complete', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.yaml');
  const [before, after] = [documentText(3, 1), documentText(40, 2)];
  writeFileSync(path, before);
  chmodSync(path, 0o600);
  let checked = false;
  const done = await writeFileAtomic(path, after, 0o644, async () => {
    assert.equal(readFileSync(path, 'utf8'), before, 'the old file is untouched');
    const temps = tempFiles(dir);
    assert.equal(temps.length, 1, `one temporary file beside it: ${temps}`);
    assert.match(temps[0]!, /^\.config\.yaml\.\d+\.[0-9a-f]{8}\.tmp$/);
    const temp = join(dir, temps[0]!);
    assert.equal(readFileSync(temp, 'utf8'), after, 'the temporary file holds the whole new text');
    assert.equal(statSync(temp).mode & 0o777, 0o600, 'with the old file permissions');
    checked = true;
    return true;
  });
  assert.equal(done, true);
  assert.ok(checked, 'beforeRename ran');
  assert.equal(readFileSync(path, 'utf8'), after);
  assert.equal(statSync(path).mode & 0o777, 0o600, 'the permissions survive the replacement');
  assert.deepEqual(tempFiles(dir), [], 'no temporary file left');
  parseConfigText(readFileSync(path, 'utf8'), 'config.yaml');
});

test('a new file gets the given mode; a refusal or a failure before the rename changes nothing', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.yaml');
  assert.equal(await writeFileAtomic(path, 'first\n', 0o640), true);
  assert.equal(statSync(path).mode & 0o777, 0o640);
  assert.equal(await writeFileAtomic(path, 'refused\n', 0o644, async () => false), false);
  assert.equal(readFileSync(path, 'utf8'), 'first\n');
  assert.deepEqual(tempFiles(dir), []);
  await assert.rejects(
    writeFileAtomic(path, 'failed\n', 0o644, async () => {
      throw new Error('disk on fire');
    }),
    /disk on fire/,
  );
  assert.equal(readFileSync(path, 'utf8'), 'first\n');
  assert.deepEqual(tempFiles(dir), []);
});

const writer = fileURLToPath(new URL('./atomic-writer.ts', import.meta.url));

/**
 * Runs the writer child replacing `path` with the text in `newTextFile`, and SIGKILLs it at its
 * `killAt`-th step (never, when there are fewer). Returns the steps it announced.
 */
function writeAndKill(
  t: TestContext,
  mode: 'atomic' | 'plain',
  path: string,
  newTextFile: string,
  killAt: number,
): Promise<{ steps: string[]; killed: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, mode, path, newTextFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => child.kill('SIGKILL'));
  const steps: string[] = [];
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ steps, killed: true });
      else if (code === 0) resolve({ steps, killed: false });
      else reject(new Error(`writer exited with ${code ?? signal}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('step ')) return;
      steps.push(line.slice(5));
      if (steps.length - 1 === killAt) child.kill('SIGKILL');
      else child.stdin.write('go\n');
    });
  });
}

/** "old", "new" or "torn (N bytes)": what a kill left at `path`. */
const outcome = (path: string, old: string, next: string) => {
  const text = readFileSync(path, 'utf8');
  return text === old ? 'old' : text === next ? 'new' : `torn (${text.length} bytes)`;
};

test('a writer killed before each of its steps and mid-write leaves the old or the new document', async (t) => {
  const dir = tempDir(t);
  const [old, next] = [documentText(60, 3), documentText(80, 4)];
  for (const text of [old, next]) parseConfigText(text, 'config.yaml');
  const newTextFile = join(dir, 'new.txt');
  writeFileSync(newTextFile, next);
  const outcomes: Record<string, string[]> = {};
  for (const mode of ['atomic', 'plain'] as const) {
    const path = join(dir, `${mode}.yaml`);
    writeFileSync(path, old);
    // A run without a kill lists the steps (and ends with the new document).
    const { steps, killed } = await writeAndKill(
      t,
      mode,
      path,
      newTextFile,
      Number.POSITIVE_INFINITY,
    );
    assert.equal(killed, false);
    assert.equal(outcome(path, old, next), 'new');
    outcomes[mode] = [];
    for (let k = 0; k < steps.length; k++) {
      writeFileSync(path, old);
      const run = await writeAndKill(t, mode, path, newTextFile, k);
      assert.equal(run.killed, true, `${mode}: killed at ${steps[k]}`);
      outcomes[mode].push(`${steps[k]}: ${outcome(path, old, next)}`);
    }
    t.diagnostic(`${mode}: ${outcomes[mode].join('; ')}`);
  }
  const atomic = outcomes.atomic!;
  assert.ok(atomic.length >= 8, `kills at every step of writeFileAtomic: ${atomic.join('; ')}`);
  assert.deepEqual(
    atomic.filter((o) => !o.endsWith(': old') && !o.endsWith(': new')),
    [],
    'every kill left the old or the new document',
  );
  assert.ok(
    atomic.some((o) => o.endsWith(': new')),
    'kills after the rename find the new one',
  );
  // The control: the same kills tear a plain open-write-close (truncated, then half written).
  assert.ok(
    outcomes.plain!.filter((o) => o.includes('torn')).length >= 2,
    `plain writes torn: ${outcomes.plain!.join('; ')}`,
  );
});
