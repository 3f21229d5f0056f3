// What the SAP scenarios send: announcements from a host of the test's own making, and ffmpeg
// playing a tone, over RTP or announced with SAP.
import { createSocket, type Socket } from 'node:dgram';
import { encodeSap } from '../../../src/services/discovery/sap-packet.js';
import type { Lab, Peer } from './lab.js';

export interface SapSender {
  /** Its socket (an ephemeral port), for raw packets. */
  readonly socket: Socket;
  /** Sends one SAP message to `group`, port 9875. */
  send(message: Parameters<typeof encodeSap>[0]): Promise<void>;
}

/** A socket that sends SAP to `group` as another host would; closed at the end. */
export async function sapSender(lab: Lab, group: string): Promise<SapSender> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  await new Promise<void>((resolve) => socket.bind(0, () => resolve()));
  lab.atEnd(() => socket.close());
  return {
    socket,
    send: (message) =>
      new Promise<void>((resolve, reject) =>
        socket.send(encodeSap(message), 9875, group, (e) => (e ? reject(e) : resolve())),
      ),
  };
}

/**
 * ffmpeg sending a stereo tone (1 kHz unless `hz` says otherwise) as L16 48 kHz in real time for
 * `seconds`, over `format` (`rtp`, or `sap`: RTP announced with SAP) to `url`.
 */
export function ffmpegToneSender(
  lab: Lab,
  seconds: number,
  format: 'rtp' | 'sap',
  url: string,
  hz = 1000,
): Peer {
  return lab.spawn('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${hz}:sample_rate=48000`,
    '-ac',
    '2',
    '-c:a',
    'pcm_s16be',
    '-t',
    String(seconds),
    '-f',
    format,
    url,
  ]);
}
