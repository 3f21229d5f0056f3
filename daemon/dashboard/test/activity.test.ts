// The state chips from /ws/stats: counters over time, the configuration and the solver's output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLAT_EQUALIZER } from '../../src/schema/constants';
import { SINK_DEFAULTS } from '../../src/schema/sink';
import { SOURCE_DEFAULTS } from '../../src/schema/source';
import { type Config, type StatsMessage, solve } from '../src/api/schema';
import { ActivityTracker, computeActivity, keepUnchanged } from '../src/lib/activity';
import { DISCOVERY_OFF } from './discovery-off';
import { engineStatus } from './engine-status';

let ids = 0;
const id = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;
const source = (name: string, extra = {}) => ({
  ...SOURCE_DEFAULTS,
  group_members: [],
  name,
  config_id: id(),
  equalizer: FLAT_EQUALIZER,
  rtp: null,
  ...extra,
});
const sink = (name: string, extra = {}) => ({
  ...SINK_DEFAULTS,
  group_members: [],
  name,
  config_id: id(),
  equalizer: FLAT_EQUALIZER,
  ...extra,
});

function setup() {
  const pc = source('PC', { ip: '10.0.0.2' });
  const tv = source('TV', { ip: '10.0.0.3' });
  const kitchen = sink('Kitchen', { ip: '10.0.0.9' });
  const hall = sink('Hall', { ip: '10.0.0.8' });
  const both = sink('Both', { is_group: true, group_members: ['Kitchen', 'Hall'] });
  const route = {
    name: 'r',
    source: 'PC',
    sink: 'Kitchen',
    enabled: true,
    volume: 1,
    delay: 0,
    config_id: id(),
    equalizer: FLAT_EQUALIZER,
  };
  const config = {
    sources: [pc, tv],
    sinks: [kitchen, hall, both],
    routes: [route],
    equalizers: [],
    favorites: [],
  } as unknown as Config;
  return { config, pc, tv, kitchen, hall, both, route };
}

function stats(
  c: ReturnType<typeof setup>,
  packets: number,
  extra: Partial<StatsMessage> = {},
  underruns = 0,
): StatsMessage {
  const counters = {
    bytes: 0,
    late: 0,
    reordered: 0,
    duplicates: 0,
    malformed: 0,
    rtcp_packets: 0,
    competing_packets: 0,
    competing_sender: null,
    sender_changes: 0,
    jitter_ms: 1,
    buffer_ms: 40,
    drift_ppm: 3,
    correction_ppm: 3,
    underruns: 0,
    silence_ms: 0,
    concealed: 0,
    concealed_ms: 0,
    skips: 0,
    skipped_ms: 0,
    repeats: 0,
    repeated_ms: 0,
    format_problem: null,
    format: 'scream s16le 48000 Hz 2 ch',
  };
  return {
    type: 'stats',
    engine: engineStatus({ uptime_s: 1, cpu_percent: 1 }),
    sources: [{ config_id: c.pc.config_id, name: 'PC', packets, lost: 0, ...counters }],
    sinks: [
      {
        config_id: c.kitchen.config_id,
        name: 'Kitchen',
        packets: packets * 2,
        bytes: 0,
        underruns,
        silence_ms: 0,
        concealed: 0,
        concealed_ms: 0,
        send_errors: 0,
        queue_bytes: 0,
        max_late_ms: 0,
      },
    ],
    paths: [],
    unknown_senders: [],
    streams: [],
    discovery: DISCOVERY_OFF,
    feeds: {
      bound_bytes: 1 << 20,
      config: { clients: 1, messages: 1, skipped: 0, closed_slow: 0 },
      stats: { clients: 1, messages: 1, skipped: 0, closed_slow: 0 },
      levels: { clients: 0, messages: 0, skipped: 0, closed_slow: 0 },
    },
    refusals: { unknown_host: 0, cross_site: 0, vnc_not_rfb: 0, last: null },
    plugins: { plugins: [], playing: 0, played: 0, skipped: 0, log_suppressed: 0 },
    ...extra,
  };
}

/** Stats with `lost` packets on PC and `underruns` on Kitchen. */
function withLoss(c: ReturnType<typeof setup>, packets: number, lost: number, underruns: number) {
  const s = stats(c, packets, {}, underruns);
  s.sources[0]!.lost = lost;
  return s;
}

test('a source whose packets grow is playing, and so are its sinks, route and their groups', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  tracker.observe(stats(c, 100), 0);
  tracker.observe(stats(c, 200), 1000);
  const a = computeActivity(c.config, solved, stats(c, 200), tracker, 1000);
  assert.equal(a.sources.get(c.pc.config_id)?.chip.state, 'playing');
  assert.equal(a.sinks.get(c.kitchen.config_id)?.chip.state, 'playing');
  assert.equal(a.sinks.get(c.hall.config_id)?.chip.state, 'silent');
  assert.equal(a.sinks.get(c.both.config_id)?.chip.label, '1 playing');
  assert.equal(a.routes.get(c.route.config_id)?.chip.state, 'playing');
  assert.deepEqual(a.playsOn.get(c.pc.config_id), ['Kitchen']);
  assert.equal(a.sources.get(c.tv.config_id)?.chip.label, 'no signal');
});

test('a stats message that moves only counters keeps every chip the same object (no card re-renders)', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  tracker.observe(stats(c, 100), 0);
  tracker.observe(stats(c, 200), 1000);
  const before = computeActivity(c.config, solved, stats(c, 200), tracker, 1000);
  tracker.observe(stats(c, 300), 2000);
  const next = computeActivity(c.config, solved, stats(c, 300), tracker, 2000);
  const kept = keepUnchanged(before, next);
  const pc = c.pc.config_id;
  // The counters moved: the entry is new, and its stats are the new ones...
  assert.notEqual(kept.sources.get(pc), before.sources.get(pc));
  assert.equal(kept.sources.get(pc)?.stats?.packets, 300);
  // ...and the chip, equal, is the one the card already shows.
  assert.equal(kept.sources.get(pc)?.chip, before.sources.get(pc)?.chip);
  assert.equal(
    kept.sinks.get(c.kitchen.config_id)?.chip,
    before.sinks.get(c.kitchen.config_id)?.chip,
  );
  // A chip that changed is the new one.
  for (let t = 3000; t <= 6000; t += 1000) tracker.observe(stats(c, 300), t);
  const quiet = keepUnchanged(
    kept,
    computeActivity(c.config, solved, stats(c, 300), tracker, 6000),
  );
  assert.notEqual(quiet.sources.get(pc)?.chip, kept.sources.get(pc)?.chip);
  assert.match(quiet.sources.get(pc)?.chip.label ?? '', /^silent for/);
});

test('packets that stop: no signal for N s; the sink goes silent', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  tracker.observe(stats(c, 100), 0);
  tracker.observe(stats(c, 200), 1000);
  for (let t = 2000; t <= 9000; t += 1000) tracker.observe(stats(c, 200), t);
  const a = computeActivity(c.config, solved, stats(c, 200), tracker, 9000);
  assert.equal(a.sources.get(c.pc.config_id)?.chip.label, 'silent for 8 s');
  assert.equal(a.sinks.get(c.kitchen.config_id)?.chip.state, 'silent');
});

test('loss and underruns in the last minute are problems; older ones are forgotten', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  const lossy = (packets: number, lost: number, underruns: number) =>
    withLoss(c, packets, lost, underruns);
  tracker.observe(lossy(100, 0, 0), 0);
  tracker.observe(lossy(200, 30, 20), 1000);
  let a = computeActivity(c.config, solved, lossy(200, 30, 20), tracker, 1000);
  assert.equal(a.sources.get(c.pc.config_id)?.chip.state, 'problem');
  assert.equal(a.sources.get(c.pc.config_id)?.chip.label, 'breaking up');
  assert.match(a.sources.get(c.pc.config_id)!.chip.detail, /30 packets lost/);
  assert.equal(a.sinks.get(c.kitchen.config_id)?.chip.state, 'problem');
  assert.equal(a.sinks.get(c.kitchen.config_id)?.chip.label, 'dropouts');
  assert.match(a.sinks.get(c.kitchen.config_id)!.chip.detail, /20 underruns/);
  for (let t = 2000; t <= 63_000; t += 1000) tracker.observe(lossy(200 + t / 10, 30, 20), t);
  a = computeActivity(c.config, solved, lossy(6500, 30, 20), tracker, 63_000);
  assert.equal(a.sources.get(c.pc.config_id)?.chip.state, 'playing');
  assert.equal(a.sinks.get(c.kitchen.config_id)?.underrunsLastMinute, 0);
});

test('a configured source heard by the engine but not routed is "not routed", not an unknown sender', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  const heard = stats(c, 0, {
    unknown_senders: [
      {
        kind: 'scream',
        address: '10.0.0.3',
        port: 4010,
        tag: null,
        packets: 50,
        format: null,
        last_seen_ms_ago: 10,
      },
      {
        kind: 'rtp',
        address: '10.0.0.77',
        port: 40000,
        tag: null,
        packets: 50,
        format: null,
        last_seen_ms_ago: 10,
      },
      {
        kind: 'scream',
        address: '10.0.0.78',
        port: 4010,
        tag: null,
        packets: 5,
        format: null,
        last_seen_ms_ago: 60_000,
      },
    ],
  });
  tracker.observe(heard, 0);
  const a = computeActivity(c.config, solved, heard, tracker, 0);
  assert.equal(a.sources.get(c.tv.config_id)?.chip.state, 'unrouted');
  assert.deepEqual(
    a.unknownSenders.map((u) => u.address),
    ['10.0.0.77'],
  );
});

test('disabled entries are off; a failed engine says so on every card', () => {
  const c = setup();
  c.config.routes[0]!.enabled = false;
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  const failed = stats(c, 0);
  failed.engine.state = 'failed';
  failed.engine.error = 'port 4010 in use';
  const a = computeActivity(c.config, solved, failed, tracker, 0);
  assert.equal(a.routes.get(c.route.config_id)?.chip.state, 'off');
  assert.equal(a.sources.get(c.pc.config_id)?.chip.label, 'engine failed');
  assert.equal(a.sources.get(c.pc.config_id)?.chip.detail, 'port 4010 in use');
});

test('a source with packets in the first statistics is "checking" until the second shows growth', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  tracker.observe(stats(c, 500), 0);
  assert.equal(
    computeActivity(c.config, solved, stats(c, 500), tracker, 0).sources.get(c.pc.config_id)?.chip
      .label,
    'checking',
  );
  tracker.observe(stats(c, 650), 1000);
  assert.equal(
    computeActivity(c.config, solved, stats(c, 650), tracker, 1000).sources.get(c.pc.config_id)
      ?.chip.state,
    'playing',
  );
});

test('an unknown sender is matched as the engine matches it: kind, port and tag, not only the address', () => {
  const c = setup();
  // PC is a Scream source at 10.0.0.2; Radio an RTP source on port 40000 from any address;
  // App a per-application source by tag.
  const radio = source('Radio', { rtp: { port: 40000, payload_type: null } });
  const app = source('App', { tag: '10.0.0.5/spotify' });
  c.config.sources.push(radio as never, app as never);
  const solved = solve(c.config);
  const sender = (
    kind: 'scream' | 'scream-tagged' | 'rtp',
    address: string,
    port: number,
    tag: string | null = null,
  ) => ({
    kind,
    address,
    port,
    tag,
    packets: 50,
    format: null,
    last_seen_ms_ago: 10,
  });
  const heard = stats(c, 0, {
    unknown_senders: [
      // RTP from PC's address: the Scream source does not take RTP (it was hidden).
      sender('rtp', '10.0.0.2', 5004),
      // RTP on Radio's port: Radio takes it (from any address).
      sender('rtp', '10.0.0.40', 40000),
      // Scream from an address only an RTP source names: no Scream source takes it.
      sender('scream', '10.0.0.41', 4010),
      // Tagged Scream with App's tag: App takes it, whatever the address.
      sender('scream-tagged', '10.0.0.99', 4011, '10.0.0.5/spotify'),
    ],
  });
  const a = computeActivity(c.config, solved, heard, new ActivityTracker(), 0);
  assert.deepEqual(
    a.unknownSenders.map((u) => `${u.kind} ${u.address}:${u.port}`),
    ['rtp 10.0.0.2:5004', 'scream 10.0.0.41:4010'],
  );
  // PC is not "not routed" because of an RTP sender at its address: it hears no Scream.
  assert.equal(a.sources.get(c.pc.config_id)?.chip.state, 'no-signal');
});

test('an RTP source that names its sender does not take another address on its port', () => {
  const c = setup();
  const radio = source('Radio', { ip: '10.0.0.40', rtp: { port: 40000, payload_type: null } });
  c.config.sources.push(radio as never);
  const heard = stats(c, 0, {
    unknown_senders: [
      {
        kind: 'rtp',
        address: '10.0.0.41',
        port: 40000,
        tag: null,
        packets: 50,
        format: null,
        last_seen_ms_ago: 10,
      },
    ],
  });
  const a = computeActivity(c.config, solve(c.config), heard, new ActivityTracker(), 0);
  assert.deepEqual(
    a.unknownSenders.map((u) => u.address),
    ['10.0.0.41'],
  );
});

test('a lost packet or an underrun now and then is not a problem: the chip stays calm and says it', () => {
  const c = setup();
  const tracker = new ActivityTracker();
  for (const [at, packets, troubles] of [
    [0, 100, 0],
    [1000, 200, 1],
  ] as const) {
    tracker.observe(withLoss(c, packets, troubles, troubles), at);
  }
  const a = computeActivity(c.config, solve(c.config), withLoss(c, 200, 1, 1), tracker, 1000);
  const pc = a.sources.get(c.pc.config_id)!.chip;
  assert.equal(pc.state, 'playing');
  assert.match(pc.detail, /1 packet lost/);
  const kitchen = a.sinks.get(c.kitchen.config_id)!;
  assert.equal(kitchen.chip.state, 'playing');
  assert.match(kitchen.chip.detail, /1 underrun/);
  assert.equal(kitchen.underrunsLastMinute, 1);
});

test('a source quiet for a while says so calmly, not as a problem', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  tracker.observe(stats(c, 100), 0);
  tracker.observe(stats(c, 200), 1000);
  for (let t = 2000; t <= 11_000; t += 1000) tracker.observe(stats(c, 200), t);
  const chip = computeActivity(c.config, solved, stats(c, 200), tracker, 11_000).sources.get(
    c.pc.config_id,
  )!.chip;
  assert.notEqual(chip.state, 'problem');
  assert.equal(chip.label, 'silent for 10 s');
});

test('a second sender on a source turns its chip to "two senders", naming it, and calm again once it stops', () => {
  const c = setup();
  const solved = solve(c.config);
  const tracker = new ActivityTracker();
  const two = (packets: number, competing: number) => {
    const s = stats(c, packets);
    s.sources[0]!.competing_packets = competing;
    s.sources[0]!.competing_sender = competing > 0 ? '10.0.0.7:50000' : null;
    return s;
  };
  tracker.observe(two(100, 0), 0);
  tracker.observe(two(200, 0), 1000);
  tracker.observe(two(300, 90), 2000);
  let a = computeActivity(c.config, solved, two(300, 90), tracker, 2000);
  const pc = () => a.sources.get(c.pc.config_id)!.chip;
  assert.equal(pc().state, 'problem');
  assert.equal(pc().label, 'two senders');
  assert.match(pc().detail, /^10\.0\.0\.7:50000 is sending to this source too/);
  // The sink still plays what the first sender sends.
  assert.equal(a.sinks.get(c.kitchen.config_id)?.chip.state, 'playing');
  for (let t = 3000; t <= 5000; t += 1000) tracker.observe(two(t / 10, 90), t);
  a = computeActivity(c.config, solved, two(500, 90), tracker, 5000);
  assert.equal(pc().state, 'playing', 'the second sender stopped 3 s ago');
});
