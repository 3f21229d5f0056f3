#!/usr/bin/env node
// A Scream sender of the soak's own, run as a process of its own so it can be stopped, restarted
// and stalled (SIGSTOP) like ffmpeg: 48 kHz 16-bit stereo, 288 frames (6 ms) a packet, a sine at
// HZ, paced by the clock (late timers catch up), from ADDRESS (an ephemeral port) to
// TO:PORT (TO 127.0.0.1 unless given). The soak also runs one to a receiver of its own as the
// machine's control: a gap in it is the machine pausing (scheduling), not the daemon.
//   node scream-sender.mjs PORT ADDRESS HZ [TO]
import { createSocket } from 'node:dgram';
import { setTimeout as sleep } from 'node:timers/promises';

const [port, address, hz] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
const to = process.argv[5] ?? '127.0.0.1';
const FRAMES = 288;
const RATE = 48_000;
const PACKET_MS = (FRAMES / RATE) * 1000;
const socket = createSocket('udp4');
await new Promise((resolve) => socket.bind(0, address, resolve));
const packet = Buffer.alloc(5 + FRAMES * 4);
// Header: 48 kHz base (bit 7 clear) x1, 16 bits, 2 channels, channel mask FL|FR.
packet.set([0x01, 16, 2, 0x03, 0x00]);
let frame = 0;
const start = performance.now();
for (let n = 0; ; n++) {
  const wait = start + n * PACKET_MS - performance.now();
  if (wait > 0) await sleep(wait);
  // Paused itself (the machine busy, or SIGSTOP): says so on stdout (the soak logs it as the
  // sender's own outage), and resumes from now rather than bursting the backlog.
  if (wait < -40) process.stdout.write(`late ${Math.round(-wait)}\n`);
  if (wait < -200) n = Math.floor((performance.now() - start) / PACKET_MS);
  for (let f = 0; f < FRAMES; f++, frame++) {
    const s = Math.round(4000 * Math.sin((2 * Math.PI * hz * frame) / RATE));
    packet.writeInt16LE(s, 5 + f * 4);
    packet.writeInt16LE(s, 7 + f * 4);
  }
  socket.send(packet, port, to);
}
