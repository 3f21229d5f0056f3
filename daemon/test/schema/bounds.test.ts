import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { complete } from '../../src/config/model.js';
import { EQ_BAND_KEYS } from '../../src/schema/common.js';
import { EqualizerPresetInput } from '../../src/schema/equalizer-preset.js';
import { ConfigFile } from '../../src/schema/files.js';
import { RouteInput, RoutePatch } from '../../src/schema/route.js';
import { SinkInput, SinkPatch } from '../../src/schema/sink.js';
import { SourceInput, SourcePatch } from '../../src/schema/source.js';
import { check } from '../../src/schema/validate.js';

interface Bound {
  field: string;
  ok: unknown[];
  bad: unknown[];
  keyword?: string;
}

const volume: Bound = { field: 'volume', ok: [0, 0.5, 1], bad: [-0.001, 1.001, '1'] };
const delay: Bound = { field: 'delay', ok: [0, 5000], bad: [-1, 5001, 2.5, null] };
const enabled: Bound = { field: 'enabled', ok: [true, false], bad: ['yes', 1, null] };
const isGroup: Bound = { field: 'is_group', ok: [true, false], bad: [0] };
const members: Bound = { field: 'group_members', ok: [[], ['A', 'B']], bad: [['A', 'A'], 'A'] };
const name: Bound = {
  field: 'name',
  ok: ['A', 'Living Room', 'x'.repeat(64), 'Küche 2'],
  bad: ['', 'x'.repeat(65), ' lead', 'trail ', 'a/b', 'tab\there', 7],
};
const ip = (field: string): Bound => ({
  field,
  ok: [null, '192.168.1.50', '::1', '239.255.77.77'],
  bad: ['192.168.1', 'host name', '300.1.1.1', 5],
});
const port = (field: string): Bound => ({ field, ok: [1, 65535, null], bad: [0, 65536, 1.5] });
const configId: Bound = {
  field: 'config_id',
  ok: ['0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11'],
  bad: ['not-a-uuid', 12],
};
const bands: Bound[] = EQ_BAND_KEYS.map((b) => ({
  field: `equalizer.${b}`,
  ok: [0, 1, 2],
  bad: [-0.01, 2.01, 'flat'],
}));

const sinkBounds: Bound[] = [
  name,
  configId,
  ip('ip'),
  port('port'),
  volume,
  delay,
  enabled,
  isGroup,
  members,
  { field: 'protocol', ok: ['scream', 'rtp', 'tcp'], bad: ['udp', null] },
  { field: 'bit_depth', ok: [16, 24, 32], bad: [8, 20, 64, '16'] },
  { field: 'sample_rate', ok: [44100, 48000, 88200, 96000, 192000], bad: [22050, 47999, 0] },
  { field: 'channels', ok: [1, 8], bad: [0, 9, 2.5] },
  {
    field: 'channel_layout',
    ok: ['mono', 'stereo', 'quad', 'surround', '3.1', '4.0', '5.1', '5.1(side)', '7.1'],
    bad: ['6.1', 'Stereo', null],
  },
  { field: 'time_sync', ok: [true, false], bad: ['no'] },
  { field: 'time_sync_delay', ok: [0, 5000], bad: [-1, 5001] },
  { field: 'volume_normalization', ok: [true, false], bad: [null] },
  ...bands,
];

const sourceBounds: Bound[] = [
  name,
  configId,
  ip('ip'),
  ip('vnc_ip'),
  port('vnc_port'),
  volume,
  delay,
  enabled,
  isGroup,
  members,
  { field: 'tag', ok: [null, 'x', 't'.repeat(128)], bad: ['', 't'.repeat(129)] },
  { field: 'rtp', ok: [null, {}], bad: [5, { nope: 1 }] },
  { field: 'rtp.port', ok: [1, 65535], bad: [0, 65536] },
  { field: 'rtp.format', ok: ['S16BE', 'L16', 'S16LE', 'L24', 'S24BE'], bad: ['mp3'] },
  { field: 'rtp.sample_rate', ok: [44100, 192000], bad: [32000] },
  { field: 'rtp.channels', ok: [1, 8], bad: [0, 9] },
  { field: 'rtp.payload_type', ok: [null, 0, 127], bad: [-1, 128] },
  { field: 'rtp.listen_ip', ok: [null, '239.1.2.3'], bad: ['nowhere'] },
  ...bands,
];

const routeBounds: Bound[] = [
  name,
  configId,
  { ...name, field: 'source' },
  { ...name, field: 'sink' },
  volume,
  delay,
  enabled,
  ...bands,
];

/** Sets `a.b.c` in a fresh copy of `base`, creating objects on the way. */
function withField(base: Record<string, unknown>, path: string, value: unknown) {
  const copy = structuredClone(base);
  const keys = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
  return copy;
}

function checkBounds(
  label: string,
  schema: TSchema,
  base: Record<string, unknown>,
  bounds: Bound[],
) {
  describe(label, () => {
    for (const b of bounds) {
      test(`${b.field}: accepts ${b.ok.map((v) => JSON.stringify(v)).join(', ')}`, () => {
        for (const value of b.ok) {
          assert.deepEqual(
            check(schema, withField(base, b.field, value)),
            [],
            JSON.stringify(value),
          );
        }
      });
      test(`${b.field}: rejects ${b.bad.map((v) => JSON.stringify(v)).join(', ')}`, () => {
        for (const value of b.bad) {
          const problems = check(schema, withField(base, b.field, value));
          assert.ok(problems.length > 0, `${JSON.stringify(value)} was accepted`);
          const [first] = problems;
          assert.ok(
            first!.path.startsWith(b.field.split('.')[0]!),
            `problem path ${first!.path} does not name ${b.field}`,
          );
          assert.match(first!.message, new RegExp(`^${first!.path.replace(/[.[\]()]/g, '\\$&')} `));
        }
      });
    }
  });
}

checkBounds('SinkInput', SinkInput, { name: 'S' }, sinkBounds);
checkBounds('SinkPatch', SinkPatch, {}, sinkBounds);
checkBounds('SourceInput', SourceInput, { name: 'S' }, sourceBounds);
checkBounds('SourcePatch', SourcePatch, {}, sourceBounds);
checkBounds('RouteInput', RouteInput, { name: 'R', source: 'S', sink: 'K' }, routeBounds);
checkBounds('RoutePatch', RoutePatch, {}, routeBounds);
checkBounds('EqualizerPresetInput', EqualizerPresetInput, { name: 'P' }, [
  name,
  ...bands.map((b) => ({ ...b, field: b.field.slice('equalizer.'.length) })),
]);

describe('defaults and messages', () => {
  test('a new sink takes every documented default', () => {
    const sink: Record<string, unknown> = { name: 'K' };
    assert.deepEqual(check(SinkInput, sink), []);
    assert.equal(sink.port, 4010);
    assert.equal(sink.volume, 1);
    assert.equal(sink.delay, 0);
    assert.equal(sink.enabled, true);
    assert.equal(sink.is_group, false);
    assert.deepEqual(sink.group_members, []);
    // channels and channel_layout follow each other, so completing the entry fills them in.
    const completed = complete('sink', sink as never);
    assert.equal(completed.channels, 2);
    assert.equal(completed.channel_layout, 'stereo');
    assert.equal(sink.sample_rate, 48000);
    assert.equal(sink.bit_depth, 16);
    assert.equal(sink.ip, null);
    assert.equal(Object.keys(sink.equalizer as object).length, 18);
    assert.ok(Object.values(sink.equalizer as object).every((g) => g === 1));
  });

  test('a partial update gets no defaults filled in', () => {
    const patch: Record<string, unknown> = { equalizer: { b2: 1.5 } };
    assert.deepEqual(check(SinkPatch, patch), []);
    assert.deepEqual(patch, { equalizer: { b2: 1.5 } });
  });

  test('a config file lists every problem with its path, rule and value', () => {
    const problems = check(ConfigFile, {
      sinks: [{ name: 'A' }, { name: 'B' }, { name: 'C', volume: 1.5 }],
      routes: [{ name: 'R', source: 'S' }],
      extra: true,
    });
    const messages = problems.map((p) => p.message);
    assert.ok(messages.includes('sinks[2].volume must be <= 1 (got 1.5)'), messages.join('\n'));
    assert.ok(messages.includes('routes[0].sink is required'), messages.join('\n'));
    assert.ok(messages.includes('extra is not a known field (got true)'), messages.join('\n'));
    const volume = problems.find((p) => p.path === 'sinks[2].volume')!;
    assert.equal(volume.keyword, 'maximum');
    assert.equal(volume.rule, 'must be <= 1');
    assert.equal(volume.value, 1.5);
  });

  test('a value of one branch of `string | string[]` breaking its rule gets that rule alone', () => {
    const problems = check(SinkInput, {
      name: 'A',
      webrtc: { ice_servers: [{ urls: 'http://x' }, { urls: ['stun:a', 'ftp:b'] }, { urls: 5 }] },
    });
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'webrtc.ice_servers[0].urls must be a stun:, stuns:, turn: or turns: URL (got "http://x")',
        'webrtc.ice_servers[1].urls[1] must be a stun:, stuns:, turn: or turns: URL (got "ftp:b")',
        // Neither branch's type: both are named.
        'webrtc.ice_servers[2].urls must be string (got 5)',
        'webrtc.ice_servers[2].urls must be array (got 5)',
      ],
    );
  });
});
