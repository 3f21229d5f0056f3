import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { addEntity, emptyConfig, updateEntity } from '../../src/config/model.js';
import { ConfigStore } from '../../src/config/store.js';
import { SinkInput } from '../../src/schema/sink.js';
import { SourceInput } from '../../src/schema/source.js';
import { check } from '../../src/schema/validate.js';
import { silentLog } from '../../src/services/discovery/log.js';
import { Reconciler } from '../../src/services/discovery/reconciler.js';
import { DiscoveredRegistry } from '../../src/services/discovery/registry.js';
import { planSync, SettingsSync } from '../../src/services/discovery/settings-sync.js';
import {
  type DeviceRecord,
  deviceFromService,
  sinkTxt,
  sourceTxt,
} from '../../src/services/discovery/txt.js';
import { tempDir } from '../helpers.js';

const ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
// What the ESP32 firmware's tr_mdns_txt() publishes for a receiver.
const FIRMWARE_TXT = {
  id: ID,
  ip: '10.0.0.21',
  type: 'rtp',
  bit_depth: '16',
  sample_rate: '48000',
  channels: '2',
  channel_layout: 'stereo',
  name: 'Porch',
  mode: 'usb_receiver',
  volume: '0.80',
  rev: '7',
};

/** A configuration store in a temporary folder holding one sink, `input`. */
async function storeWithSink(t: TestContext, input: Record<string, unknown>): Promise<ConfigStore> {
  const dir = tempDir(t);
  const store = await ConfigStore.open({
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    watch: false,
  });
  t.after(() => store.close());
  check(SinkInput, input);
  await store.change((c) => addEntity(c, 'sink', input as never));
  return store;
}

describe('TXT records', () => {
  test("a receiver's TXT (as the ESP32 firmware writes it) reads into a usable sink device", () => {
    const d = deviceFromService(
      {
        name: 'Porch',
        fqdn: 'Porch._tributary-sink._udp.local',
        host: 'porch.local',
        port: 40000,
        txt: FIRMWARE_TXT,
      },
      'sink',
      ['10.0.0.99'],
    );
    assert.deepEqual(
      [
        d.id,
        d.ip,
        d.port,
        d.protocol,
        d.bit_depth,
        d.sample_rate,
        d.channels,
        d.channel_layout,
        d.volume,
        d.rev,
        d.usable,
      ],
      [ID, '10.0.0.21', 40000, 'rtp', 16, 48000, 2, 'stereo', 0.8, 7, true],
    );
  });

  test('what makes a device unusable is said', () => {
    const bad = deviceFromService(
      {
        name: 'X',
        fqdn: 'X._tributary-sink._udp.local',
        port: 4010,
        txt: { id: 'kitchen', sample_rate: '12345', type: 'ndi', volume: '3' },
      },
      'sink',
      [],
    );
    assert.equal(bad.usable, false);
    assert.match(bad.reason ?? '', /TXT id 'kitchen' is not a UUID/);
    assert.match(bad.reason ?? '', /no address/);
    assert.match(bad.reason ?? '', /TXT type 'ndi'/);
    assert.match(bad.reason ?? '', /sample_rate '12345'/);
    assert.equal(bad.volume, null, 'volume out of range is ignored');
    assert.equal(bad.id, 'X._tributary-sink._udp.local', 'listed under its service name');
    const longKey = deviceFromService(
      { txt: { ['k'.repeat(70)]: 'v', id: ID, ip: '10.0.0.1' } },
      'source',
      [],
    );
    assert.equal(Object.keys(longKey.txt).length, 2);
  });

  test("Tributary's own TXT: the spec's fields for sinks and sources", () => {
    const sink = { name: 'Kitchen', ip: '192.168.1.51', sample_rate: 44100 };
    check(SinkInput, sink);
    const c = emptyConfig();
    const s = addEntity(c, 'sink', sink as never);
    assert.deepEqual(
      Object.entries(sinkTxt(s)).filter(([k]) =>
        ['id', 'ip', 'bit_depth', 'sample_rate', 'channels', 'channel_layout'].includes(k),
      ),
      [
        ['id', s.config_id],
        ['ip', '192.168.1.51'],
        ['bit_depth', '16'],
        ['sample_rate', '44100'],
        ['channels', '2'],
        ['channel_layout', 'stereo'],
      ],
    );
    const source = { name: 'Desk', ip: '192.168.1.20' };
    check(SourceInput, source);
    const txt = sourceTxt(addEntity(c, 'source', source as never));
    assert.deepEqual([txt.ip, txt.type], ['192.168.1.20', 'scream']);
    assert.match(txt.version!, /^\d+\.\d+\.\d+/);
  });
});

describe('settings sync', () => {
  test('per field: the side that changed wins; both changed: Tributary wins', () => {
    const agreed = { volume: 0.5, name: 'Porch', sample_rate: 48000, eq_preset: null };
    assert.deepEqual(planSync(agreed, agreed, agreed), { pull: {}, push: {} });
    assert.deepEqual(planSync({ ...agreed, volume: 0.7 }, agreed, agreed), {
      pull: { volume: 0.7 },
      push: {},
    });
    assert.deepEqual(planSync(agreed, { ...agreed, name: 'Deck' }, agreed), {
      pull: {},
      push: { name: 'Deck' },
    });
    assert.deepEqual(planSync({ ...agreed, volume: 0.7 }, { ...agreed, volume: 0.2 }, agreed), {
      pull: {},
      push: { volume: 0.2 },
    });
    assert.deepEqual(
      planSync({ ...agreed, sample_rate: null }, { ...agreed, sample_rate: 44100 }, agreed),
      {
        pull: {},
        push: {},
      },
      'a device that does not say is left alone',
    );
  });

  test("against a device's HTTP settings API: Tributary's change is posted, the device's change is taken", async (t) => {
    const posts: Record<string, unknown>[] = [];
    const device = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const change = JSON.parse(body) as Record<string, unknown>;
        posts.push(change);
        // The firmware allows letters, digits, space - _ . in names.
        const refused = typeof change.name === 'string' && /[^\w .-]/.test(change.name);
        res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
        res.end(refused ? '{"error":{"field":"name","rule":"format"}}' : '{}');
      });
    });
    await new Promise<void>((resolve) => device.listen(0, '127.0.0.1', () => resolve()));
    t.after(() => device.close());
    const port = (device.address() as { port: number }).port;

    const store = await storeWithSink(t, {
      config_id: ID,
      name: 'Porch',
      ip: '127.0.0.1',
      volume: 0.8,
    });
    const registry = new DiscoveredRegistry<DeviceRecord>();
    const record = (volume: string, rev: string) =>
      registry.heard(
        deviceFromService(
          { name: 'Porch', port: 4010, txt: { ...FIRMWARE_TXT, ip: '127.0.0.1', volume, rev } },
          'sink',
          [],
        ),
      );
    record('0.80', '7');
    const sync = new SettingsSync(
      registry,
      () => store.config,
      new Reconciler(store, silentLog),
      () => port,
      silentLog,
    );

    await sync.tick();
    assert.deepEqual(posts, [], 'in agreement: nothing sent');
    await store.change((c) => updateEntity(c, 'sink', 'Porch', { volume: 0.3 }));
    await sync.tick();
    assert.deepEqual(posts, [{ volume: 0.3 }]);
    assert.equal(sync.counters.to_devices, 1);
    record('0.30', '8'); // the device applied it and says so
    await sync.tick();
    assert.equal(posts.length, 1, 'no echo');

    record('0.55', '9'); // turned on the device
    await sync.tick();
    assert.equal(store.config.sinks[0]!.volume, 0.55);
    assert.equal(sync.counters.from_devices, 1);
    assert.equal(posts.length, 1, 'not sent back');

    await store.change((c) => updateEntity(c, 'sink', 'Porch', { name: 'Porch (2)' }));
    await sync.tick();
    await sync.tick();
    assert.deepEqual(posts.slice(1), [{ name: 'Porch (2)' }], 'a refused change is not retried');
    assert.equal(sync.counters.errors, 1);
    assert.match(sync.counters.last_error ?? '', /refused.*400/);
  });
});

test('a name from a device that Tributary does not allow is refused, not saved', async (t) => {
  const store = await storeWithSink(t, { config_id: ID, name: 'Porch', ip: '127.0.0.1' });
  const registry = new DiscoveredRegistry<DeviceRecord>();
  const heard = (name: string) =>
    registry.heard(
      deviceFromService(
        { port: 4010, txt: { ...FIRMWARE_TXT, ip: '127.0.0.1', name, volume: '1' } },
        'sink',
        [],
      ),
    );
  heard('Porch');
  const sync = new SettingsSync(
    registry,
    () => store.config,
    new Reconciler(store, silentLog),
    () => 1,
    silentLog,
  );
  await sync.tick();
  heard('Porch/Deck');
  await sync.tick();
  assert.equal(store.config.sinks[0]!.name, 'Porch');
  assert.match(sync.counters.last_error ?? '', /name must not contain "\/"/);
});

test('a device without a settings API (no _http._tcp, as `tributary receive`): changes stay in Tributary, counted once, nothing fails', async (t) => {
  const store = await storeWithSink(t, { config_id: ID, name: 'Den', ip: '127.0.0.1' });
  const registry = new DiscoveredRegistry<DeviceRecord>();
  // What native/receive/src/advertise.rs publishes: no volume, no settings API.
  const txt = {
    id: ID,
    type: 'scream',
    bit_depth: '16',
    sample_rate: '48000',
    channels: '2',
    channel_layout: 'stereo',
    name: 'Den',
  };
  registry.heard(deviceFromService({ port: 4010, txt, addresses: ['127.0.0.1'] }, 'sink', []));
  const sync = new SettingsSync(
    registry,
    () => store.config,
    new Reconciler(store, silentLog),
    () => null,
    silentLog,
  );
  await sync.tick();
  await store.change((c) => updateEntity(c, 'sink', 'Den', { name: 'Den Pi', volume: 0.3 }));
  for (let i = 0; i < 3; i++) await sync.tick();
  assert.deepEqual(
    [store.config.sinks[0]!.name, store.config.sinks[0]!.volume],
    ['Den Pi', 0.3],
    "Tributary's values kept, the device's name not pulled over them",
  );
  assert.deepEqual(
    [sync.counters.errors, sync.counters.last_error, sync.counters.to_devices],
    [0, null, 0],
  );
  assert.equal(sync.counters.not_sent, 1, 'the change counted once, not every comparison');
  await store.change((c) => updateEntity(c, 'sink', 'Den Pi', { name: 'Den 2' }));
  await sync.tick();
  await sync.tick();
  assert.equal(sync.counters.not_sent, 2);
  assert.equal(sync.counters.errors, 0);
});
