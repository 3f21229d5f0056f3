// The configuration files against crashes and careless edits (issue 10): a file emptied or cut
// short at a line boundary is refused at start and not used while running (a last-good copy is
// kept beside it); kill -9 leftovers are cleaned at start; hand edits are picked up within
// CONFIGURATION_RELOAD_TIMEOUT + 0.5 s of the edit.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigFileError } from '../../src/config/documents.js';
import { addEntity } from '../../src/config/model.js';
import { ConfigStore, type StoreLogger } from '../../src/config/store.js';
import { FLAT_EQUALIZER } from '../../src/schema/common.js';
import { SINK_DEFAULTS, type SinkInput } from '../../src/schema/sink.js';
import { tempDir } from '../helpers.js';

const sink = (name: string) =>
  ({ ...SINK_DEFAULTS, group_members: [], name, equalizer: { ...FLAT_EQUALIZER } }) as SinkInput;

interface Opened {
  store: ConfigStore;
  errors: string[];
  infos: string[];
}

async function open(t: TestContext, dir: string, reloadTimeoutMs = 60_000): Promise<Opened> {
  const errors: string[] = [];
  const infos: string[] = [];
  const logger: StoreLogger = {
    info: (m) => infos.push(m),
    warn: (m) => errors.push(m),
    error: (m) => errors.push(m),
  };
  const store = await ConfigStore.open({
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    reloadTimeoutMs,
    logger,
  });
  t.after(() => store.close());
  return { store, errors, infos };
}

/** A store holding `n` sinks, closed again; the directory keeps the files. */
async function house(t: TestContext, n: number): Promise<string> {
  const dir = tempDir(t);
  const { store } = await open(t, dir);
  await store.change((c) => {
    for (let i = 0; i < n; i++) addEntity(c, 'sink', sink(`Sink ${i}`));
  });
  await store.close();
  return dir;
}

describe('damaged configuration files', () => {
  test('a last-good copy is kept beside the file, equal to what was saved', async (t) => {
    const dir = await house(t, 3);
    const file = join(dir, 'config.yaml');
    assert.equal(readFileSync(`${file}.last-good`, 'utf8'), readFileSync(file, 'utf8'));
  });

  test('a file cut short at a line boundary is refused at start, naming both ways out', async (t) => {
    const dir = await house(t, 40);
    const file = join(dir, 'config.yaml');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    writeFileSync(file, `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
    await assert.rejects(open(t, dir), (err: ConfigFileError) => {
      assert.ok(err instanceof ConfigFileError);
      assert.match(err.message, /ends early/);
      assert.match(err.message, /of its 40 entries/);
      assert.match(err.message, /cp '.*config\.yaml\.last-good' '.*config\.yaml'/);
      return true;
    });
    // The damaged file and the copy are left as they are.
    assert.equal(readFileSync(`${file}.last-good`, 'utf8'), text);
    // Restoring the copy starts the daemon with everything.
    writeFileSync(file, text);
    const { store } = await open(t, dir);
    assert.equal(store.config.sinks.length, 40);
  });

  test('an emptied file is refused at start; removing the copy accepts it', async (t) => {
    const dir = await house(t, 2);
    const file = join(dir, 'config.yaml');
    writeFileSync(file, '');
    await assert.rejects(open(t, dir), /is empty, but the last version had 2 entries/);
    const { rmSync } = await import('node:fs');
    rmSync(`${file}.last-good`);
    const { store } = await open(t, dir);
    assert.equal(store.config.sinks.length, 0);
  });

  test('while running, a truncated edit is not used and is kept aside on the next save', async (t) => {
    const dir = await house(t, 10);
    const file = join(dir, 'config.yaml');
    const { store, errors } = await open(t, dir, 100);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.indexOf('  - name: Sink 5')));
    await store.reload();
    assert.equal(store.config.sinks.length, 10, 'the running state is kept');
    assert.ok(
      errors.some((e) => /ends early/.test(e) && /not used/.test(e)),
      errors.join('\n'),
    );
    await store.change((c) => addEntity(c, 'sink', sink('New')));
    assert.equal(store.config.sinks.length, 11);
    assert.ok(readdirSync(dir).some((f) => f.startsWith('config.yaml.rejected-')));
    // A deliberate shortening (anything after the cut) is an ordinary hand edit.
    const saved = readFileSync(file, 'utf8');
    writeFileSync(file, `${saved.slice(0, saved.indexOf('  - name: Sink 5'))}# trimmed\n`);
    await store.reload();
    assert.equal(store.config.sinks.length, 5);
  });
});

describe('leftovers and reload timing', () => {
  test('temporary files of a killed daemon are removed at start; a live one is kept', async (t) => {
    const dir = await house(t, 1);
    const stale = [
      '.config.yaml.999999.0a1b2c3d.tmp',
      '.equalizers.yaml.999998.deadbeef.tmp',
      '.config.yaml.last-good.999997.00ff00ff.tmp',
    ];
    const live = `.config.yaml.${process.ppid}.12345678.tmp`;
    const unrelated = '.config.yaml.notes.tmp';
    for (const name of [...stale, live, unrelated]) writeFileSync(join(dir, name), 'x');
    const { infos } = await open(t, dir);
    for (const name of stale) {
      assert.ok(!existsSync(join(dir, name)), name);
      assert.ok(
        infos.some((m) => m.includes(name)),
        `logged ${name}`,
      );
    }
    assert.ok(existsSync(join(dir, live)), 'a running process may still rename it');
    assert.ok(existsSync(join(dir, unrelated)));
  });

  test('hand edits are reloaded within CONFIGURATION_RELOAD_TIMEOUT + 0.5 s', async (t) => {
    const timeout = 1000;
    const dir = await house(t, 1);
    const file = join(dir, 'config.yaml');
    const { store } = await open(t, dir, timeout);
    const alive = setInterval(() => {}, 1000); // the store's own timers do not hold the process
    t.after(() => clearInterval(alive));
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      // Edits at different phases of the poll.
      await sleep(137 * i);
      const seen = new Promise<number>((resolve) => {
        const stop = store.subscribe(() => {
          stop();
          resolve(Date.now());
        });
      });
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace(/volume: [\d.]+/, `volume: 0.${i + 1}`));
      const edited = statSync(file).mtimeMs;
      delays.push((await seen) - edited);
    }
    for (const d of delays) {
      assert.ok(d >= timeout - 20, `reloaded after ${d} ms: before the file rested`);
      assert.ok(d <= timeout + 500, `reloaded after ${d} ms (all: ${delays.join(', ')})`);
    }
    t.diagnostic(`reload delays: ${delays.map((d) => Math.round(d)).join(', ')} ms`);
  });
});
