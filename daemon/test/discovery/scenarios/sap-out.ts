// Tributary announces its RTP sink over SAP and real receivers play it: ffmpeg (`-i sap://`)
// and PulseAudio's module-rtp-recv each record a 1 kHz tone routed through Tributary. The
// announcement is checked field by field, repeats every interval, and a deletion goes out when
// the sink is disabled and when the daemon stops.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeSap, type SapPacket } from '../../../src/services/discovery/sap-packet.js';
import { type Lab, leftChannel, waitFor, wavData, withLab } from './lab.js';
import { type PulseTone, startPulse } from './pulse.js';
import { ffmpegToneSender } from './sap-peers.js';
import { measureTone } from './tone.js';

const config = `
sinks:
  - name: Multicast
    ip: 239.255.77.1
    port: 5004
    protocol: rtp
sources:
  - name: Tone
    rtp:
      port: 41000
routes:
  - name: tone-out
    source: Tone
    sink: Multicast
sap:
  announcer:
    interval: 1
mdns:
  enabled: false
`;

/** Every SAP packet on the PulseAudio group, with its arrival time. */
async function capture(lab: Lab): Promise<{ packet: SapPacket; at: number }[]> {
  const heard: { packet: SapPacket; at: number }[] = [];
  const rx = createSocket({ type: 'udp4', reuseAddr: true });
  rx.on('message', (m) => {
    try {
      heard.push({ packet: decodeSap(m), at: performance.now() });
    } catch {}
  });
  await new Promise<void>((resolve) => rx.bind(9875, () => resolve()));
  rx.addMembership('224.0.0.56');
  lab.atEnd(() => rx.close());
  return heard;
}

/** What PulseAudio's module-rtp-recv plays of the announced stream. */
async function recordWithPulseAudio(lab: Lab): Promise<PulseTone> {
  const pulse = await startPulse(lab);
  await pulse.waitForStreams(1);
  // Its start (the buffer filling, its first rate step) settles.
  await sleep(1500);
  const [tone] = await pulse.record([{ session: 'Multicast', rate: 48000 }], 2);
  assert.equal(pulse.died(), null);
  return tone!;
}

export default () =>
  withLab(async (lab) => {
    const heard = await capture(lab);
    const daemon = await lab.daemon(config);
    const tone = ffmpegToneSender(lab, 90, 'rtp', 'rtp://127.0.0.1:41000');

    // The announcement: what the engine sends, every second (interval 1).
    await waitFor(
      'three announcements',
      () => heard.filter((h) => h.packet.type === 'announce').length >= 9 || undefined,
      10_000,
      () => daemon.output(),
    );
    const announcements = heard.filter((h) => h.packet.type === 'announce');
    const sdp = announcements[0]!.packet.payload;
    for (const line of [
      /^v=0\n/,
      /\no=- \d+ \d+ IN IP4 \S+\n/,
      /\ns=Multicast\n/,
      /\nc=IN IP4 239\.255\.77\.1\/64\n/,
      /\nm=audio 5004 RTP\/AVP 127\n/,
      /\na=rtpmap:127 L16\/48000\/2\n/,
      /\na=ptime:6\n/,
      /\na=recvonly\n/,
      /\na=ts-refclk:local\n/,
      /\na=mediaclk:sender\n/,
    ]) {
      assert.match(sdp, line);
    }
    assert.equal(announcements[0]!.packet.payloadType, 'application/sdp');
    // Each announcement goes to three groups; this socket hears all three (Linux delivers a
    // group joined by any socket to every socket on the port), so count bursts.
    const bursts = announcements.filter((a, i) => i === 0 || a.at - announcements[i - 1]!.at > 300);
    const gaps = bursts.slice(1).map((a, i) => a.at - bursts[i]!.at);
    assert.ok(
      gaps.every((g) => g > 600 && g < 2000),
      `intervals ${gaps.map(Math.round)} ms`,
    );

    // ffmpeg finds the stream by SAP alone and plays it.
    const dir = lab.dir();
    const wav = join(dir, 'ffmpeg.wav');
    const ff = lab.spawn('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'sap://224.2.127.254',
      '-t',
      '2',
      '-y',
      wav,
    ]);
    assert.equal(await ff.exited(), 0, ff.output());
    const data = wavData(readFileSync(wav));
    const ffmpegTone = measureTone(leftChannel(data.pcm, data.channels), data.rate);
    assert.ok(Math.abs(ffmpegTone.hz - 1000) < 1, `ffmpeg heard ${JSON.stringify(ffmpegTone)}`);
    assert.ok(ffmpegTone.rms > 0.03, `ffmpeg level ${ffmpegTone.rms}`);

    // So does PulseAudio, under the payload type Tributary chose (127: an L16 stream under any
    // type but 10, 11 or 127 its receiver drops). It plays the tone off by its own rate
    // adaptation (2 per mille steps every 5 s); what it heard is that frequency less the
    // adaptation.
    const pulseTone = await recordWithPulseAudio(lab);
    assert.ok(Math.abs(pulseTone.hz - 1000) < 1, `PulseAudio heard ${JSON.stringify(pulseTone)}`);
    assert.ok(pulseTone.rms > 0.03, `PulseAudio level ${pulseTone.rms}`);

    // Disabling the sink sends a deletion; so does stopping the daemon.
    let before = heard.length;
    const disabled = performance.now();
    assert.equal((await daemon.call('GET', '/sinks/Multicast/disable')).status, 200);
    const deletion = await waitFor(
      'a deletion for the disabled sink',
      () => heard.slice(before).find((h) => h.packet.type === 'delete'),
      3000,
    );
    const deletionMs = deletion.at - disabled;
    await sleep(1500);
    assert.ok(
      !heard.slice(before).some((h) => h.packet.type === 'announce' && h.at > deletion.at + 50),
      'no announcement after the deletion',
    );
    assert.equal((await daemon.call('GET', '/sinks/Multicast/enable')).status, 200);
    await waitFor(
      'announcements again',
      () => heard.slice(before).some((h) => h.packet.type === 'announce') || undefined,
      3000,
    );
    before = heard.length;
    assert.equal(await daemon.stop('SIGTERM'), 0, daemon.output());
    await sleep(200);
    assert.ok(
      heard.slice(before).some((h) => h.packet.type === 'delete'),
      'a deletion when the daemon stops',
    );
    await tone.stop();

    return {
      ffmpeg_hz: Math.round(ffmpegTone.hz * 1000) / 1000,
      pulseaudio_hz: Math.round(pulseTone.hz * 1000) / 1000,
      pulseaudio_played_hz: Math.round(pulseTone.played_hz * 1000) / 1000,
      pulseaudio_rate: pulseTone.rate,
      interval_ms: gaps.map(Math.round),
      deletion_after_disable_ms: Math.round(deletionMs),
    };
  });
