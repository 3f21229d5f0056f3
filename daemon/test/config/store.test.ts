import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse, stringify } from 'yaml';
import { ConfigFileError } from '../../src/config/documents.js';
import { addEntity, find, settingsDefaults, updateEntity } from '../../src/config/model.js';
import { type ConfigSnapshot, ConfigStore } from '../../src/config/store.js';
import { FLAT_EQUALIZER } from '../../src/schema/common.js';
import { SINK_DEFAULTS, type SinkInput } from '../../src/schema/sink.js';
import { tempDir } from '../helpers.js';

interface Logged {
  level: string;
  message: string;
}

async function open(t: TestContext, dir = tempDir(t), reloadTimeoutMs = 100) {
  const logs: Logged[] = [];
  const store = await ConfigStore.open({
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    reloadTimeoutMs,
    logger: {
      info: (message) => logs.push({ level: 'info', message }),
      warn: (message) => logs.push({ level: 'warn', message }),
      error: (message) => logs.push({ level: 'error', message }),
    },
  });
  t.after(() => store.close());
  return { store, dir, logs, file: join(dir, 'config.yaml') };
}

const sink = (name: string, extra: Partial<SinkInput> = {}) =>
  ({
    ...SINK_DEFAULTS,
    group_members: [],
    name,
    ip: '10.0.0.2',
    equalizer: { ...FLAT_EQUALIZER },
    ...extra,
  }) as SinkInput;

/** Waits until `predicate` holds (polling), or fails after `ms`. */
async function until(predicate: () => boolean, ms = 5000, what = 'condition') {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('config store', () => {
  test('a missing file starts from the built-in defaults and writes them', async (t) => {
    const { store, dir } = await open(t);
    assert.deepEqual(store.config.sinks, []);
    assert.ok(store.config.equalizers.some((p) => p.name === 'Flat'));
    assert.deepEqual(parse(readFileSync(join(dir, 'config.yaml'), 'utf8')), {
      revision: 1,
      sinks: [],
      sources: [],
      routes: [],
      ...settingsDefaults(),
    });
    assert.match(readFileSync(join(dir, 'equalizers.yaml'), 'utf8'), /name: Bass Boost/);
  });

  test('changes are saved before they are acknowledged and survive reopening', async (t) => {
    const dir = tempDir(t);
    const first = await open(t, dir);
    const created = await first.store.change((c) => addEntity(c, 'sink', sink('Kitchen')));
    assert.match(readFileSync(first.file, 'utf8'), /name: Kitchen/);
    await first.store.change((c) => updateEntity(c, 'sink', 'Kitchen', { volume: 0.25 }));
    assert.equal(first.store.revision, 3);
    await first.store.close();
    const second = await open(t, dir);
    assert.equal(find(second.store.config as never, 'sink', 'Kitchen').volume, 0.25);
    assert.equal(second.store.config.sinks[0]!.config_id, created.config_id);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.tmp')),
      [],
      'no temporary files left',
    );
  });

  test('a failing change changes nothing, and the next one still works', async (t) => {
    const { store, file } = await open(t);
    await store.change((c) => addEntity(c, 'sink', sink('A')));
    const text = readFileSync(file, 'utf8');
    await assert.rejects(
      store.change((c) => addEntity(c, 'sink', sink('A'))),
      { statusCode: 409 },
    );
    await assert.rejects(
      store.change((c) => {
        c.sinks[0]!.group_members = ['Nobody'];
      }),
      { statusCode: 400, code: 'TRIBUTARY_INVALID_CONFIG' },
    );
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(store.revision, 2);
    await store.change((c) => addEntity(c, 'sink', sink('B')));
    assert.equal(store.config.sinks.length, 2);
  });

  test('concurrent changes are applied in order, saved together, and each acknowledged', async (t) => {
    const { store, file } = await open(t);
    const seen: ConfigSnapshot[] = [];
    store.subscribe((s) => seen.push(s));
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.change((c) => addEntity(c, 'sink', sink(`S${i}`))),
      ),
    );
    assert.deepEqual(
      store.config.sinks.map((s) => s.name),
      Array.from({ length: 50 }, (_, i) => `S${i}`),
    );
    assert.equal((parse(readFileSync(file, 'utf8')) as { sinks: unknown[] }).sinks.length, 50);
    assert.ok(
      seen.length >= 1 && seen.length < 50,
      `group commit: ${seen.length} saves for 50 changes`,
    );
    assert.equal(seen.at(-1)!.revision, store.revision);
    assert.ok(Object.isFrozen(store.config.sinks[0]), 'snapshots are frozen');
  });

  test('an invalid file refuses to open, naming file, path and rule, and is left untouched', async (t) => {
    const dir = tempDir(t);
    const file = join(dir, 'config.yaml');
    const text = 'sinks:\n  - name: A\n    bit_depth: 20\n  - name: A\n';
    writeFileSync(file, text);
    await assert.rejects(open(t, dir), (err: ConfigFileError) => {
      assert.ok(err instanceof ConfigFileError);
      assert.equal(err.file, file);
      assert.match(err.message, /sinks\[0\]\.bit_depth must be one of 16, 24, 32 \(got 20\)/);
      return true;
    });
    writeFileSync(file, 'sinks: [ {name: A}\n');
    await assert.rejects(open(t, dir), /is not valid YAML/);
    writeFileSync(file, 'sinks:\n  - name: A\n  - name: A\n');
    await assert.rejects(open(t, dir), /sinks\[1\]\.name must be unique/);
    assert.equal(readFileSync(file, 'utf8'), 'sinks:\n  - name: A\n  - name: A\n');
  });

  test('YAML is parsed safely: no custom tags, duplicate keys refused', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'config.yaml'), 'sinks:\n  - !!js/function "function(){}"\n');
    await assert.rejects(open(t, dir), ConfigFileError);
    writeFileSync(join(dir, 'config.yaml'), 'sinks: []\nsinks: []\n');
    await assert.rejects(open(t, dir), /Map keys must be unique/);
  });

  test('entries without config_id get one, written back, and keep it', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'config.yaml'), 'sinks:\n  - name: Hand Made\n    ip: 10.0.0.9\n');
    const { store, file } = await open(t, dir);
    const id = store.config.sinks[0]!.config_id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(readFileSync(file, 'utf8'), new RegExp(`config_id: ${id}`));
  });

  test('a hand edit is picked up after the reload timeout and merged with API changes', async (t) => {
    const { store, file, logs } = await open(t);
    await store.change((c) => {
      addEntity(c, 'sink', sink('Kitchen'));
      addEntity(c, 'sink', sink('Den'));
    });
    const seen: number[] = [];
    store.subscribe((s) => seen.push(s.revision));
    // By hand: Kitchen gets a new IP and a new sink appears without a config_id.
    const doc = parse(readFileSync(file, 'utf8'));
    doc.sinks[0].ip = '10.0.0.99';
    doc.sinks.push({ name: 'Garage', ip: '10.0.0.50' });
    writeFileSync(file, stringify(doc));
    // Meanwhile, through the API (before the reload timeout): Den's volume.
    await store.change((c) => updateEntity(c, 'sink', 'Den', { volume: 0.3 }));
    const names = store.config.sinks.map((s) => s.name);
    assert.deepEqual(names, ['Kitchen', 'Den', 'Garage'], 'the save merged the hand edit first');
    assert.equal(find(store.config as never, 'sink', 'Kitchen').ip, '10.0.0.99');
    assert.equal(find(store.config as never, 'sink', 'Den').volume, 0.3);
    const onDisk = parse(readFileSync(file, 'utf8'));
    assert.equal(onDisk.sinks[2].name, 'Garage');
    assert.ok(onDisk.sinks[2].config_id, 'the new entry was given a config_id on disk');
    assert.equal(onDisk.sinks[1].volume, 0.3);

    // A hand edit with no API change is picked up by the watcher alone.
    const doc2 = parse(readFileSync(file, 'utf8'));
    doc2.sinks[1].enabled = false;
    writeFileSync(file, stringify(doc2));
    await until(
      () => find(store.config as never, 'sink', 'Den').enabled === false,
      5000,
      'the reload',
    );
    assert.ok(seen.length >= 2, 'subscribers heard about both changes');
    assert.ok(logs.some((l) => l.message.includes('reloaded')));
  });

  test('an editor saving a buffer opened before some API changes does not undo them', async (t) => {
    const { store, file } = await open(t, undefined, 60_000);
    await store.change((c) => addEntity(c, 'sink', sink('Kitchen')));
    const opened = readFileSync(file, 'utf8'); // the editor loads the file
    await store.change((c) => addEntity(c, 'sink', sink('Den'))); // meanwhile, through the API
    await store.change((c) => updateEntity(c, 'sink', 'Kitchen', { volume: 0.4 }));
    // The user saves the old buffer with their own change: Kitchen's IP.
    const doc = parse(opened);
    doc.sinks[0].ip = '10.0.0.77';
    writeFileSync(file, stringify(doc));
    await store.reload();
    const kitchen = find(store.config as never, 'sink', 'Kitchen');
    assert.equal(kitchen.ip, '10.0.0.77', 'the hand edit is applied');
    assert.equal(kitchen.volume, 0.4, 'the API change to the same entry is kept');
    assert.deepEqual(
      store.config.sinks.map((s) => s.name),
      ['Kitchen', 'Den'],
      'the sink added through the API is not taken for a deletion',
    );
    const saved = parse(readFileSync(file, 'utf8'));
    assert.deepEqual(
      saved.sinks.map((s: { name: string }) => s.name),
      ['Kitchen', 'Den'],
      'and the merged result is what the file holds',
    );
  });

  test('a hand deletion of the entry added last through the API is still a deletion', async (t) => {
    const { store, file } = await open(t, undefined, 60_000);
    await store.change((c) => addEntity(c, 'sink', sink('Kitchen')));
    await store.change((c) => addEntity(c, 'sink', sink('Den')));
    const doc = parse(readFileSync(file, 'utf8'));
    doc.sinks.splice(1, 1);
    writeFileSync(file, stringify(doc));
    await store.reload();
    assert.deepEqual(
      store.config.sinks.map((s) => s.name),
      ['Kitchen'],
    );
    // Without the revision line, the edit is taken as based on the latest version.
    await store.change((c) => addEntity(c, 'sink', sink('Attic')));
    const bare = parse(readFileSync(file, 'utf8'));
    delete bare.revision;
    bare.sinks = bare.sinks.filter((s: { name: string }) => s.name !== 'Attic');
    writeFileSync(file, stringify(bare));
    await store.reload();
    assert.deepEqual(
      store.config.sinks.map((s) => s.name),
      ['Kitchen'],
    );
  });

  test('each save writes the next revision, continuing after a restart', async (t) => {
    const dir = tempDir(t);
    const first = await open(t, dir);
    await first.store.change((c) => addEntity(c, 'sink', sink('A')));
    await first.store.change((c) => addEntity(c, 'sink', sink('B')));
    assert.equal(parse(readFileSync(first.file, 'utf8')).revision, 3);
    await first.store.close();
    const second = await open(t, dir);
    await second.store.change((c) => addEntity(c, 'sink', sink('C')));
    assert.equal(parse(readFileSync(second.file, 'utf8')).revision, 4);
  });

  test('an editor writing in place is not read half-way: the API change waits for it to settle', async (t) => {
    const { store, file, dir } = await open(t, undefined, 60_000);
    await store.change((c) => addEntity(c, 'sink', sink('Kitchen')));
    const doc = parse(readFileSync(file, 'utf8'));
    doc.sinks[0].ip = '10.0.0.88';
    const text = stringify(doc);
    const { openSync, writeSync, closeSync } = await import('node:fs');
    const fd = openSync(file, 'w'); // truncate, then write in two parts
    writeSync(fd, text.slice(0, text.length / 2));
    const change = store.change((c) => updateEntity(c, 'sink', 'Kitchen', { volume: 0.5 }));
    await sleep(40);
    writeSync(fd, text.slice(text.length / 2));
    closeSync(fd);
    await change;
    const kitchen = find(store.config as never, 'sink', 'Kitchen');
    assert.equal(kitchen.ip, '10.0.0.88');
    assert.equal(kitchen.volume, 0.5);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('rejected')),
      [],
    );
  });

  test('a corrupt hand edit is reported, kept, and the running state is not lost', async (t) => {
    const { store, file, dir, logs } = await open(t);
    await store.change((c) => addEntity(c, 'sink', sink('Kitchen')));
    const corrupt = 'sinks:\n  - name: Kitchen\n    volume: 7\n';
    writeFileSync(file, corrupt);
    await store.reload();
    assert.equal(store.config.sinks[0]!.volume, 1, 'running state kept');
    assert.equal(readFileSync(file, 'utf8'), corrupt, 'the file is not overwritten by a reload');
    const errors = logs.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /sinks\[0\]\.volume must be <= 1 \(got 7\)/);
    assert.ok(errors[0]!.message.includes(file));
    await store.reload();
    assert.equal(logs.filter((l) => l.level === 'error').length, 1, 'reported once');

    // A change to equalizers.yaml alone leaves the invalid config.yaml where it is.
    await store.change((c) => {
      c.equalizers.push({ ...c.equalizers[0]!, name: 'Mine' });
    });
    assert.equal(readFileSync(file, 'utf8'), corrupt);

    // An API change that must be saved moves the invalid file aside, never deleting it.
    await store.change((c) => updateEntity(c, 'sink', 'Kitchen', { volume: 0.5 }));
    const aside = readdirSync(dir).filter((f) => f.startsWith('config.yaml.rejected-'));
    assert.equal(aside.length, 1);
    assert.equal(readFileSync(join(dir, aside[0]!), 'utf8'), corrupt);
    assert.equal(parse(readFileSync(file, 'utf8')).sinks[0].volume, 0.5);
  });

  test('a deleted file is written again on the next change', async (t) => {
    const { store, file } = await open(t);
    const { rmSync } = await import('node:fs');
    rmSync(file);
    await store.change((c) => addEntity(c, 'sink', sink('K')));
    assert.match(readFileSync(file, 'utf8'), /name: K/);
  });
});

describe('names against the rule of names in the store', () => {
  test('a name the file already has is kept through changes; a change adding one is refused', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'config.yaml'), 'sinks:\n  - name: ".."\n  - name: Den\n');
    const { store, logs } = await open(t, dir);
    assert.match(logs.find((l) => l.level === 'warn')!.message, /sinks\[0\]\.name must not be/);
    // Other changes go through with ".." still there, and so does a change of its own fields.
    await store.change((c) => addEntity(c, 'sink', sink('Hall')));
    await store.change((c) => {
      find(c, 'sink', '..').volume = 0.5;
    });
    // A new such name, from anywhere (not only the API's request schemas), is refused.
    for (const bad of ['.', 'a\u202eb', '\udfff']) {
      await assert.rejects(
        store.change((c) => updateEntity(c, 'sink', 'Den', { name: bad })),
        (err: Error & { details?: { keyword: string }[] }) => err.details?.[0]?.keyword === 'name',
        JSON.stringify(bad),
      );
    }
    assert.deepEqual(
      store.config.sinks.map((s) => [s.name, s.volume]),
      [
        ['..', 0.5],
        ['Den', 1],
        ['Hall', 1],
      ],
    );
  });
});
