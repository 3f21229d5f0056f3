// Media control of a source's computer: one UDP datagram with a single character to port 9999
// of its vnc_ip (P play/pause, n next track, p previous track), as the command receiver expects.
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';

export const MEDIA_COMMAND_PORT = 9999;

export const MEDIA_COMMANDS = {
  play: 'P',
  nexttrack: 'n',
  prevtrack: 'p',
} as const;

export type MediaCommand = keyof typeof MEDIA_COMMANDS;

/** Sends the command's character to host:port; resolves once the datagram is handed to the OS. */
export function sendMediaCommand(host: string, port: number, command: MediaCommand): Promise<void> {
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  return new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.send(MEDIA_COMMANDS[command], port, host, (err) => (err ? reject(err) : resolve()));
  }).finally(() => socket.close());
}
