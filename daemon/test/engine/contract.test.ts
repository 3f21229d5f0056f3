// The contract between the control plane and the engine, written once on the engine's side
// (native/napi/index.d.ts is generated from the Rust types): what the daemon declares about it
// (the /api/stats schema, the configuration's lists and bounds) must not drift from it. Types
// are compared when this file is type-checked (`npm run typecheck`: a drift is a compile
// error), values when it runs, against a real engine.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Static, TObject } from '@sinclair/typebox';
import {
  type ChannelLayoutName,
  Engine,
  type EngineCulprit,
  type EnginePathStats,
  type EnginePorts,
  type EngineQuarantine,
  type EngineSinkStats,
  type EngineSourceStats,
  type EngineStats,
  type EngineUnknownSender,
  engineLimits,
  type InstructionSet,
  parseLayout,
  type RtpEncoding,
  type SimdDispatch,
  type SinkProtocol,
} from '@tributary/native';
import {
  BIT_DEPTHS,
  CHANNEL_LAYOUTS,
  DEFAULT_SINK_PORT,
  EQ_BAND_COUNT,
  EQ_GAIN_MAX,
  LAYOUT_CHANNELS,
  SAMPLE_RATES,
  VOLUME_MAX,
} from '../../src/schema/common.js';
import { SINK_PROTOCOLS } from '../../src/schema/sink.js';
import { DEFAULT_RTP_PORT, RTP_FORMATS } from '../../src/schema/source.js';
import {
  type Culprit,
  EngineStatus,
  PathStats,
  type Quarantined,
  SinkStats,
  SourceStats,
  UnknownSender,
} from '../../src/schema/stats.js';
import { check } from '../../src/schema/validate.js';

/** True exactly when A and B are the same type. */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>) => assert.equal(equal, true);

/** The fields of /api/stats's `engine` object the engine reports itself. */
type FromEngine = Omit<EngineStats, 'sources' | 'sinks' | 'paths'>;

test('the /api/stats schema has the types of the engine’s statistics', () => {
  same<Static<typeof SourceStats>, EngineSourceStats>(true);
  same<Static<typeof SinkStats>, EngineSinkStats>(true);
  // The daemon adds the route the solver chose.
  same<Omit<Static<typeof PathStats>, 'route_config_id'>, EnginePathStats>(true);
  same<Static<typeof UnknownSender>, EngineUnknownSender>(true);
  same<Static<typeof Culprit>, EngineCulprit>(true);
  same<Static<typeof Quarantined>, Omit<EngineQuarantine, 'ms_left'>>(true);
  same<Static<typeof EngineStatus>['ports'], EnginePorts>(true);
  same<Static<typeof EngineStatus>['simd']['used'], InstructionSet>(true);
  same<keyof Static<typeof EngineStatus>['simd'], keyof SimdDispatch>(true);
  same<Pick<Static<typeof EngineStatus>, keyof FromEngine>, FromEngine>(true);
});

test('the configuration’s lists are the engine’s (types and values)', () => {
  same<(typeof SINK_PROTOCOLS)[number], SinkProtocol>(true);
  same<(typeof CHANNEL_LAYOUTS)[number], ChannelLayoutName>(true);
  same<(typeof RTP_FORMATS)[number], RtpEncoding>(true);
  const limits = engineLimits();
  assert.deepEqual([...SINK_PROTOCOLS], limits.sinkProtocols);
  assert.deepEqual([...CHANNEL_LAYOUTS], limits.channelLayouts);
  assert.deepEqual([...RTP_FORMATS], limits.rtpEncodings);
  assert.deepEqual([...SAMPLE_RATES], limits.commonSampleRates);
  assert.deepEqual([...BIT_DEPTHS], limits.bitDepths);
  for (const name of CHANNEL_LAYOUTS) {
    assert.equal(LAYOUT_CHANNELS[name], parseLayout(name).channels, name);
  }
  assert.deepEqual(
    [VOLUME_MAX, EQ_GAIN_MAX, EQ_BAND_COUNT, DEFAULT_SINK_PORT, DEFAULT_RTP_PORT],
    [
      limits.volumeMax,
      limits.eqGainMax,
      limits.eqBands,
      limits.defaultSinkPort,
      limits.defaultRtpPorts[0],
    ],
  );
});

test('every value of the engine’s enums is one the engine plays', () => {
  const limits = engineLimits();
  const paths = limits.rtpEncodings.map((format, i) => ({
    source: `RTP ${format}`,
    source_config_id: `source-${i}`,
    ip: null,
    tag: null,
    rtp: { listen_ip: null, port: 40100 + 2 * i, format, sample_rate: 48000, channels: 2 },
    volume: 1,
    eq: Array(EQ_BAND_COUNT).fill(1),
    delay_ms: 0,
  }));
  const sinks = limits.sinkProtocols.flatMap((protocol) =>
    limits.channelLayouts.map((layout) => ({
      name: `${protocol} ${layout}`,
      config_id: `${protocol}-${layout}`,
      ip: '127.0.0.1',
      port: 4010,
      protocol,
      sample_rate: 48000,
      bit_depth: 16,
      channels: LAYOUT_CHANNELS[layout],
      channel_layout: layout,
      volume_normalization: false,
      paths,
    })),
  );
  assert.equal(sinks.length, limits.sinkProtocols.length * limits.channelLayouts.length);
  assert.equal(Engine.check({ sinks }), null);
  // And the check does refuse what is not one of them (it is not vacuous).
  const [first] = sinks;
  assert.match(
    String(Engine.check({ sinks: [{ ...first!, protocol: 'smoke' as SinkProtocol }] })),
    /protocol/,
  );
});

/** The schema's property names, sorted. */
const keys = (schema: TObject) => Object.keys(schema.properties).sort();

test('a running engine reports exactly what the /api/stats schema declares', async (t) => {
  const engine = new Engine({ bind: '127.0.0.1', screamPorts: [0], tagged: false, rtpPorts: [] });
  t.after(() => engine.stop());
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  const problems = engine.apply({
    sinks: [
      {
        name: 'Kitchen',
        config_id: 'sink-1',
        ip: '127.0.0.1',
        port: socket.address().port,
        protocol: 'scream',
        sample_rate: 48000,
        bit_depth: 16,
        channels: 2,
        channel_layout: 'stereo',
        volume_normalization: false,
        paths: [
          {
            source: 'PC',
            source_config_id: 'source-1',
            ip: '127.0.0.2',
            tag: null,
            rtp: null,
            volume: 1,
            eq: Array(EQ_BAND_COUNT).fill(1),
            delay_ms: 0,
          },
        ],
      },
    ],
  });
  assert.deepEqual(problems, []);
  // A sender no source matches, so the list of unknown senders has an entry.
  const packet = Buffer.alloc(5 + 1152);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  const port = engine.ports().scream[0]!;
  let unknown = engine.unknownSenders();
  for (let tries = 0; unknown.length === 0 && tries < 100; tries++) {
    socket.send(packet, port, '127.0.0.1');
    await sleep(20);
    unknown = engine.unknownSenders();
  }
  const stats = engine.stats();
  const reported: [string, unknown, TObject][] = [
    ['a source', stats.sources[0], SourceStats],
    ['a sink', stats.sinks[0], SinkStats],
    ['a path', { ...stats.paths[0], route_config_id: null }, PathStats],
    ['an unknown sender', unknown[0], UnknownSender],
    ['the ports', engine.ports(), EngineStatus.properties.ports],
  ];
  for (const [what, value, schema] of reported) {
    assert.ok(value, `${what} is reported`);
    assert.deepEqual(Object.keys(value as object).sort(), keys(schema), what);
    assert.deepEqual(check(schema, value), [], what);
  }
  assert.deepEqual(
    stats.paths.map((p) => [p.sink_config_id, p.source_config_id]),
    [['sink-1', 'source-1']],
  );
  const lists = ['sources', 'sinks', 'paths'];
  const fromEngine = Object.keys(stats).filter((k) => !lists.includes(k));
  for (const key of fromEngine) assert.ok(key in EngineStatus.properties, key);
});
