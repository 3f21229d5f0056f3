// Real audio on loopback for the dashboard's tests, benchmark and screenshots: Scream packets
// (48 kHz, 16-bit stereo, a 440 Hz tone) sent at the real rate from given addresses, and UDP
// receivers that stand in for sinks.
import { createSocket, type Socket } from 'node:dgram';

function bound(address: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, address, () => resolve(socket));
  });
}

/** `count` sockets on 127.0.0.1 that take whatever is sent to them. */
export async function receivers(count: number): Promise<Socket[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const socket = await bound('127.0.0.1');
      socket.on('message', () => {});
      return socket;
    }),
  );
}

/** Sends a tone from each of `from` to the engine's Scream `port` until the returned stop(). */
export async function sendScream(port: number, from: readonly string[]): Promise<() => void> {
  const senders = await Promise.all(from.map(bound));
  const packet = Buffer.alloc(1157);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  for (let frame = 0; frame < 288; frame++) {
    const sample = Math.round(6000 * Math.sin((2 * Math.PI * 440 * frame) / 48000));
    packet.writeInt16LE(sample, 5 + frame * 4);
    packet.writeInt16LE(sample, 7 + frame * 4);
  }
  const timer = setInterval(() => {
    for (const socket of senders) socket.send(packet, port, '127.0.0.1');
  }, 6);
  return () => {
    clearInterval(timer);
    for (const socket of senders) socket.close();
  };
}
