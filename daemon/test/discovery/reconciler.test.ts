import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addEntity, emptyConfig, validateConfig } from '../../src/config/model.js';
import type { Config } from '../../src/schema/files.js';
import { SourceInput } from '../../src/schema/source.js';
import { check } from '../../src/schema/validate.js';
import {
  applyDevice,
  applyStream,
  type DeviceFacts,
  freeName,
  removeAutoAdded,
} from '../../src/services/discovery/reconciler.js';
import { studioStream as stream } from './heard-stream.js';

function config(): Config {
  const c = emptyConfig();
  const input = { name: 'SAP streams', is_group: true };
  check(SourceInput, input);
  addEntity(c, 'source', input as never);
  return c;
}

const device: DeviceFacts = {
  id: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  kind: 'sink',
  name: 'Porch',
  ip: '10.0.0.21',
  port: 4010,
  protocol: 'rtp',
  bit_depth: 16,
  sample_rate: 44100,
  channels: 2,
  channel_layout: 'stereo',
  rtp_port: null,
  volume: 0.4,
  usable: true,
};

describe('auto-add reconciler', () => {
  test('an announced stream becomes a source in the chosen group, and follows it when it moves', () => {
    const c = config();
    assert.equal(applyStream(c, stream(), false, null), null, 'nothing without auto-add');
    assert.match(applyStream(c, stream(), true, 'SAP streams') ?? '', /added source 'Studio'/);
    const added = c.sources.find((s) => s.name === 'Studio')!;
    assert.deepEqual(added.auto_added, { via: 'sap', key: 'pw 77' });
    assert.deepEqual(added.rtp, {
      listen_ip: '239.1.1.1',
      port: 5004,
      format: 'S16BE',
      sample_rate: 48000,
      channels: 2,
      payload_type: 127,
      time_sync: false,
      sap: true,
    });
    assert.deepEqual(c.sources[0]!.group_members, ['Studio']);
    assert.equal(applyStream(c, stream(), true, 'SAP streams'), null, 'heard again: no change');
    assert.match(applyStream(c, stream(5008, '239.1.1.2'), true, null) ?? '', /updated/);
    assert.equal(c.sources.length, 2);
    assert.equal(c.sources[1]!.config_id, added.config_id);
    assert.equal(c.sources[1]!.rtp!.listen_ip, '239.1.1.2');
    assert.deepEqual(validateConfig(c), []);
  });

  test('a name already taken gets a number; names are cleaned into valid ones', () => {
    assert.equal(freeName('Studio', ['Studio', 'Studio (2)'], 'x'), 'Studio (3)');
    assert.equal(freeName(' a/b\u0001c ', [], 'x'), 'a b c');
    assert.equal(freeName('\u0000/', [], 'SAP stream'), 'SAP stream');
    assert.equal(freeName('x'.repeat(100), [], 'y').length, 58);
  });

  test('removal: out of every group; kept while a route names it; never a source made by hand', () => {
    const c = config();
    applyStream(c, stream(), true, 'SAP streams');
    const handMade = { name: 'Studio B', rtp: { port: 5010, sap: true } };
    check(SourceInput, handMade);
    addEntity(c, 'source', handMade as never);
    assert.match(
      applyStream(c, stream(5010, '224.0.0.1', 'Studio B', 78), true, null) ?? '',
      /updated source 'Studio B'/,
    );
    c.routes.push({
      name: 'r',
      config_id: '9d6c1f0e-0000-4000-8000-000000000001',
      source: 'Studio',
      sink: 'x',
      enabled: true,
      volume: 1,
      unmute_volume: null,
      delay: 0,
      equalizer: c.sources[0]!.equalizer,
    });
    assert.match(
      removeAutoAdded(c, 'source', 'sap', 'pw 77') ?? '',
      /kept source 'Studio': route 'r'/,
    );
    assert.deepEqual(c.sources[0]!.group_members, []);
    c.routes = [];
    assert.equal(removeAutoAdded(c, 'source', 'sap', 'pw 77'), "removed source 'Studio'");
    assert.equal(removeAutoAdded(c, 'source', 'sap', 'pw 77'), null);
    assert.ok(
      c.sources.some((s) => s.name === 'Studio B'),
      'made by hand: stays',
    );
  });

  test('a device becomes a sink with its config_id and format; a moved device keeps it', () => {
    const c = config();
    assert.equal(applyDevice(c, { ...device, usable: false }, true, null), null);
    assert.equal(applyDevice(c, device, false, null), null);
    assert.match(applyDevice(c, device, true, null) ?? '', /added sink 'Porch'/);
    const sink = c.sinks[0]!;
    assert.deepEqual(
      [
        sink.config_id,
        sink.ip,
        sink.port,
        sink.protocol,
        sink.sample_rate,
        sink.volume,
        sink.auto_added,
      ],
      [device.id, '10.0.0.21', 4010, 'rtp', 44100, 0.4, { via: 'mdns', key: device.id }],
    );
    assert.match(
      applyDevice(c, { ...device, ip: '10.0.0.22', port: 4011 }, true, null) ?? '',
      /ip 10\.0\.0\.21 -> 10\.0\.0\.22, port 4010 -> 4011/,
    );
    assert.equal(c.sinks.length, 1);
    assert.equal(applyDevice(c, { ...device, ip: '10.0.0.22', port: 4011 }, true, null), null);
    const surround = { ...device, ip: '10.0.0.22', port: 4011, channels: 6, channel_layout: '5.1' };
    assert.match(
      applyDevice(c, surround, true, null) ?? '',
      /channels 2 -> 6, channel_layout stereo -> 5\.1/,
    );
    applyDevice(
      c,
      { ...device, id: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e60', kind: 'source', protocol: 'rtp' },
      true,
      'SAP streams',
    );
    assert.deepEqual(c.sources.find((s) => s.name === 'Porch')?.rtp?.port, 40000);
    assert.deepEqual(c.sources[0]!.group_members, ['Porch']);
    assert.deepEqual(validateConfig(c), []);
  });
});
