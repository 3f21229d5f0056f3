// Several RTP sinks announced to one PulseAudio: two, then three, each of another payload type,
// rate and channel count, multicast and unicast, each fed its own tone. PulseAudio's
// module-rtp-recv must play every one as its own stream, at its own frequency (within 1 Hz of
// what was sent, less PulseAudio's own rate adaptation) and at the level Tributary sends, drop
// the one disabled (its deletion), and must not stop (PulseAudio 16.1 aborts when more than 64
// KiB of a stream pile up before it first reads it).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Daemon } from '../../daemon-process.js';
import { get, waitFor, withLab } from './lab.js';
import { startPulse } from './pulse.js';
import { ffmpegToneSender } from './sap-peers.js';

/** The sinks, each with the tone routed to it and what PulseAudio should make of it. */
const SINKS = [
  // Multicast, 48 kHz stereo, the payload type set by hand (127, as the RTP guide says).
  { name: 'Lounge', ip: '239.255.77.1', port: 5004, rate: 48000, channels: 2, pt: 127, hz: 1000 },
  // Unicast to this host, 48 kHz mono, the payload type left to Tributary.
  { name: 'Desk', ip: '127.0.0.1', port: 5006, rate: 48000, channels: 1, pt: null, hz: 1500 },
  // Multicast, 44.1 kHz stereo (payload type 10 by default), added while the others play.
  { name: 'Kitchen', ip: '239.255.77.3', port: 5008, rate: 44100, channels: 2, pt: null, hz: 700 },
] as const;

const config = `
sinks:
${SINKS.map(
  (s, i) => `  - name: ${s.name}
    ip: ${s.ip}
    port: ${s.port}
    protocol: rtp
    sample_rate: ${s.rate}
    channels: ${s.channels}
    payload_type: ${s.pt ?? 'null'}
    enabled: ${i < 2}`,
).join('\n')}
sources:
${SINKS.map(
  (s, i) => `  - name: Tone ${s.hz}
    rtp:
      port: ${41000 + 2 * i}`,
).join('\n')}
routes:
${SINKS.map(
  (s) => `  - name: to ${s.name}
    source: Tone ${s.hz}
    sink: ${s.name}`,
).join('\n')}
sap:
  announcer:
    interval: 1
mdns:
  enabled: false
`;

interface SinkLevel {
  name: string;
  windows: number;
  rms: number[];
}

/**
 * The RMS (first channel) of what the engine sends to each sink, from GET /api/levels: the
 * median of ten readings over a second (each covers the latest ~33 ms).
 */
async function sentLevels(daemon: Daemon): Promise<Map<string, number>> {
  const sinks = await get<{ name: string; config_id: string }[]>(daemon, '/sinks');
  const path = `/api/levels?sink=${sinks.map((s) => s.config_id).join(',')}&detail=meter`;
  const read = async () => (await get<{ sinks: SinkLevel[] }>(daemon, path)).sinks;
  // The engine measures a sink only while someone reads it: the first readings are zeros.
  await waitFor(
    'the engine to measure every sink',
    async () => (await read()).every((s) => s.windows > 10) || undefined,
    5000,
  );
  const readings: SinkLevel[][] = [];
  for (let i = 0; i < 10; i++) {
    readings.push(await read());
    await sleep(100);
  }
  const median = (name: string) => {
    const v = readings
      .map((r) => r.find((l) => l.name === name)?.rms[0] ?? 0)
      .sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)]!;
  };
  return new Map(sinks.map((s) => [s.name, median(s.name)]));
}

interface Heard {
  sink: string;
  payload: number;
  channels: number;
  hz: number;
  played_hz: number;
  pulse_rate: number;
  rms: number;
  sent_rms: number;
  steady_s: number;
}

/** Records every playing sink in PulseAudio and checks its tone and level. */
async function checkAll(
  daemon: Daemon,
  pulse: Awaited<ReturnType<typeof startPulse>>,
  sinks: readonly (typeof SINKS)[number][],
): Promise<Heard[]> {
  const streams = await pulse.waitForStreams(sinks.length);
  assert.deepEqual(
    streams.map((s) => s.session).sort(),
    sinks.map((s) => s.name).sort(),
    'one PulseAudio stream per announced sink',
  );
  // PulseAudio's start (its buffer filling, its first rate step) settles.
  await sleep(2000);
  // All recorded at once, so a stream PulseAudio fed from another's packets would show.
  const tones = await pulse.record(
    sinks.map((s) => ({ session: s.name, rate: s.rate })),
    3,
  );
  const sent = await sentLevels(daemon);
  return sinks.map((s, i) => {
    const stream = streams.find((x) => x.session === s.name)!;
    const tone = tones[i]!;
    return {
      sink: s.name,
      payload: stream.payload,
      channels: stream.channels,
      hz: Math.round(tone.hz * 1000) / 1000,
      played_hz: Math.round(tone.played_hz * 1000) / 1000,
      pulse_rate: tone.rate,
      rms: Math.round(tone.rms * 10000) / 10000,
      sent_rms: Math.round((sent.get(s.name) ?? 0) * 10000) / 10000,
      steady_s: tone.seconds,
    };
  });
}

function assertHeard(heard: Heard[], pulse: { died(): string | null }): void {
  assert.equal(pulse.died(), null);
  for (const h of heard) {
    const sink = SINKS.find((s) => s.name === h.sink)!;
    const what = `${h.sink}: ${JSON.stringify(h)}`;
    assert.equal(h.channels, sink.channels, what);
    // Within 1 dB of what the engine sends to the sink (silence: PulseAudio dropped it all).
    const db = 20 * Math.log10(h.rms / h.sent_rms);
    assert.ok(h.sent_rms > 0.01 && Math.abs(db) < 1, `level ${db.toFixed(2)} dB off: ${what}`);
    assert.ok(h.steady_s >= 1, `a steady stretch of ${h.steady_s} s: ${what}`);
    assert.ok(Math.abs(h.hz - sink.hz) < 1, `PulseAudio heard ${h.hz} Hz: ${what}`);
  }
}

export default () =>
  withLab(async (lab) => {
    const daemon = await lab.daemon(config);
    for (const [i, s] of SINKS.entries()) {
      ffmpegToneSender(lab, 120, 'rtp', `rtp://127.0.0.1:${41000 + 2 * i}`, s.hz);
    }
    const pulse = await startPulse(lab);

    // Two sinks: multicast with payload type 127, unicast mono with the default.
    const two = await checkAll(daemon, pulse, SINKS.slice(0, 2));
    assertHeard(two, pulse);

    // A third joins while they play.
    assert.equal((await daemon.call('GET', `/sinks/${SINKS[2].name}/enable`)).status, 200);
    const three = await checkAll(daemon, pulse, SINKS);
    assertHeard(three, pulse);

    // Disabling one sends its deletion: PulseAudio drops that stream (it keys streams by the
    // whole o= line, which the deletion repeats) and keeps the others.
    const disabled = performance.now();
    assert.equal((await daemon.call('GET', `/sinks/${SINKS[1].name}/disable`)).status, 200);
    const left = await waitFor(
      `PulseAudio to drop '${SINKS[1].name}'`,
      async () => {
        const s = await pulse.streams();
        return s.some((x) => x.session === SINKS[1].name) ? undefined : s;
      },
      3000,
    );
    const dropMs = Math.round(performance.now() - disabled);
    assert.deepEqual(left.map((s) => s.session).sort(), ['Kitchen', 'Lounge']);
    await sleep(1000);
    assert.equal(pulse.died(), null);
    return { two, three, pulse_dropped_disabled_ms: dropMs };
  });
