#!/usr/bin/env node
// Re-creates the golden packets in this folder: real datagrams captured on loopback from ffmpeg
// and GStreamer (the senders users run), plus Scream packets written to the Scream wire format
// (no Scream sender is packaged in Debian) and a few deliberately broken packets.
//
//   node testdata/packets/capture.mjs            # needs ffmpeg and gst-launch-1.0
//
// Captured packets carry fresh random SSRCs, sequence numbers and timestamps on every run, so
// after re-capturing, expected.tsv must be checked and updated by hand (xxd FILE | head).
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const write = (name, bytes) => {
  writeFileSync(`${here}${name}`, bytes);
  console.log(`${name}: ${bytes.length} bytes`);
};

/** Binds a loopback UDP socket, runs `command(port)`, and resolves with the first datagram. */
function captureOne(command, { match = () => true, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    let child;
    const timer = setTimeout(() => finish(new Error('no packet within the timeout')), timeoutMs);
    const finish = (error, packet) => {
      clearTimeout(timer);
      socket.close();
      child?.kill('SIGKILL');
      if (error) reject(error);
      else resolve(packet);
    };
    socket.on('message', (msg) => {
      if (match(msg)) finish(null, msg);
    });
    socket.bind(0, '127.0.0.1', () => {
      const [cmd, ...args] = command(socket.address().port);
      child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      child.on('error', (error) => finish(error));
    });
  });
}

const sine = (rate) => [
  '-hide_banner',
  '-loglevel',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=1000:sample_rate=${rate}`,
  '-ac',
  '2',
  '-c:a',
  'pcm_s16be',
];

// ffmpeg's RTP muxer: L16 stereo. At 44.1 kHz it uses the static payload type 10.
write(
  'rtp-ffmpeg-l16-48k-stereo.bin',
  await captureOne((port) => [
    'ffmpeg',
    ...sine(48_000),
    '-f',
    'rtp',
    '-pkt_size',
    '1164',
    `rtp://127.0.0.1:${port}?localrtcpport=${port + 1}`,
  ]),
);
write(
  'rtp-ffmpeg-l16-44k1-stereo-pt10.bin',
  await captureOne((port) => [
    'ffmpeg',
    ...sine(44_100),
    '-f',
    'rtp',
    '-pkt_size',
    '1164',
    `rtp://127.0.0.1:${port}`,
  ]),
);
// The RTCP sender report ffmpeg sends on the RTP port plus one: must be rejected as RTP.
write(
  'rtcp-ffmpeg-sender-report.bin',
  await captureOne(
    (port) => ['ffmpeg', ...sine(48_000), '-f', 'rtp', `rtp://127.0.0.1:${port}?rtcpport=${port}`],
    { match: (packet) => packet[1] === 200 },
  ),
);
// ffmpeg's SAP muxer announcing an L16 stream (announcements sent to loopback, not multicast).
write(
  'sap-ffmpeg-announce-l16-48k.bin',
  await captureOne((port) => [
    'ffmpeg',
    ...sine(48_000),
    '-f',
    'sap',
    `sap://127.0.0.1:${port + 2}?announce_addr=127.0.0.1&announce_port=${port}`,
  ]),
);
// GStreamer's rtpL16pay (what PulseAudio-era pipelines and many guides use).
write(
  'rtp-gstreamer-l16-48k-stereo.bin',
  await captureOne((port) => [
    'gst-launch-1.0',
    '-q',
    'audiotestsrc',
    'freq=1000',
    'is-live=true',
    '!',
    'audio/x-raw,format=S16BE,rate=48000,channels=2',
    '!',
    'rtpL16pay',
    'mtu=1164',
    '!',
    'udpsink',
    'host=127.0.0.1',
    `port=${port}`,
  ]),
);

// Scream: 5-byte header, then 1152 bytes of little-endian PCM (a ramp, so every sample is known:
// left = 2 * frame, right = -(2 * frame)).
function scream(rateByte, depth, channels, mask, payloadBytes = 1152) {
  const out = Buffer.alloc(5 + payloadBytes);
  out.set([rateByte, depth, channels, mask & 0xff, mask >> 8]);
  if (depth === 16 && channels === 2) {
    for (let frame = 0; frame < payloadBytes / 4; frame++) {
      out.writeInt16LE(2 * frame, 5 + frame * 4);
      out.writeInt16LE(-2 * frame, 5 + frame * 4 + 2);
    }
  }
  return out;
}
write('scream-48k-s16-stereo.bin', scream(0x01, 16, 2, 0x0003));
write('scream-44k1-s16-stereo.bin', scream(0x81, 16, 2, 0x0003));
write('scream-48k-s24-5.1.bin', scream(0x01, 24, 6, 0x003f));

// Broken packets every receiver must drop and count.
write('bad-scream-rate-zero.bin', scream(0x00, 16, 2, 0x0003, 16));
write('bad-scream-oversized.bin', scream(0x01, 16, 2, 0x0003, 1156));
write('bad-rtp-truncated-header.bin', Buffer.from([0x80, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0]));
write('bad-rtp-version-1.bin', Buffer.from([0x40, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]));
write(
  'bad-rtp-padding-too-long.bin',
  Buffer.from([0xa0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 9]),
);
