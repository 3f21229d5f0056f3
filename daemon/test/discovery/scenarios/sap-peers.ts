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

/**
 * The daemon's configuration for a stream heard over SAP: the listener adds it as a source into
 * the group `SAP streams`, which a route plays to an RTP sink (so the engine receives it).
 */
export const routedSapConfig = (cleanupS: number) => `
sinks:
  - name: Out
    ip: 127.0.0.1
    port: 46000
    protocol: rtp
sources:
  - name: SAP streams
    is_group: true
routes:
  - name: discovered
    source: SAP streams
    sink: Out
sap:
  listener:
    auto_add_sources: true
    cleanup_timeout: ${cleanupS}
    add_to_group: SAP streams
  announcer:
    enabled: false
mdns:
  enabled: false
`;

/** A source as `GET /sources` lists it (what the SAP scenarios read). */
export interface SapSource {
  name: string;
  config_id: string;
  auto_added: { via: string; key: string } | null;
  rtp: {
    listen_ip: string | null;
    port: number;
    format: string;
    sample_rate: number;
    channels: number;
  } | null;
  group_members: string[];
}

/** What `/api/stats` says of sources. */
export interface SourceStats {
  sources: { name: string; packets: number; format: string | null }[];
}
