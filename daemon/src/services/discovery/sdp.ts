// Session descriptions (SDP, RFC 8866) through sdp-transform: what a SAP announcement says about
// a stream (origin, name, destination, payload format), and the description Tributary announces
// for each of its RTP sinks.
import { isIP } from 'node:net';
import { parse, type SessionDescription, write } from 'sdp-transform';
import { SAMPLE_RATES } from '../../schema/common.js';
import type { RtpSettings } from '../../schema/source.js';

/** The encodings Tributary plays, by their SDP names (L16 and S16BE are the same thing). */
const ENCODINGS: Record<string, RtpSettings['format']> = {
  L16: 'S16BE',
  S16BE: 'S16BE',
  S16LE: 'S16LE',
  L24: 'L24',
  S24BE: 'L24',
};
/** RFC 3551 static payload types of linear PCM: 10 is L16/44100/2, 11 is L16/44100/1. */
const STATIC_TYPES: Record<number, { codec: string; rate: number; channels: number }> = {
  10: { codec: 'L16', rate: 44100, channels: 2 },
  11: { codec: 'L16', rate: 44100, channels: 1 },
};

export interface StreamFormat {
  /** The SDP encoding name as announced (L16, L24, S16LE, ...). */
  readonly encoding: string;
  /** The format as an RTP source takes it; null when Tributary cannot play it. */
  readonly format: RtpSettings['format'] | null;
  readonly sample_rate: number;
  readonly channels: number;
  readonly payload_type: number;
}

/** What one announcement describes. */
export interface StreamDescription {
  /** `s=`: the session name. */
  readonly name: string;
  /** `o=`: who made the session; with the session id it names the stream for good. */
  readonly origin: {
    readonly username: string;
    readonly session_id: string;
    readonly version: string;
    readonly address: string;
  };
  /** Destination address (`c=`, the media's or the session's), without /ttl. */
  readonly address: string | null;
  readonly port: number;
  /** The first payload type listed on the `m=audio` line, with its format. */
  readonly stream: StreamFormat;
  /** `a=ptime` in ms, when given. */
  readonly ptime: number | null;
  /** sendonly, recvonly, sendrecv or inactive, when given. */
  readonly direction: string | null;
  /** `a=ts-refclk` and `a=mediaclk` as written, when given (RFC 7273). */
  readonly refclk: string | null;
  readonly mediaclk: string | null;
  /** Why Tributary cannot play it (null: it can). */
  readonly unplayable: string | null;
}

export class SdpError extends Error {
  override name = 'SdpError';
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function address(connection: { ip?: unknown } | undefined): string | null {
  const ip = text(connection?.ip).split('/')[0]!;
  return isIP(ip) ? ip : null;
}

/** The format of payload type `pt` in a media section (its rtpmap, or the static table). */
function formatOf(media: SessionDescription['media'][number], pt: number): StreamFormat {
  const map = media.rtp.find((r) => r.payload === pt);
  const known = STATIC_TYPES[pt];
  const codec = map?.codec ?? known?.codec ?? `payload type ${pt}`;
  const rate = map?.rate ?? known?.rate ?? 0;
  const channels = map ? Number(map.encoding ?? 1) || 1 : (known?.channels ?? 0);
  const format = ENCODINGS[codec.toUpperCase()] ?? null;
  return { encoding: codec, format, sample_rate: rate, channels, payload_type: pt };
}

function unplayable(f: StreamFormat): string | null {
  if (f.format === null)
    return `encoding ${f.encoding} is not one Tributary plays (L16, L24, S16LE)`;
  if (!(SAMPLE_RATES as readonly number[]).includes(f.sample_rate)) {
    return `sample rate ${f.sample_rate} Hz is not supported (${SAMPLE_RATES.join(', ')})`;
  }
  if (f.channels < 1 || f.channels > 8) return `${f.channels} channels (1 to 8 are supported)`;
  return null;
}

/**
 * Reads a session description. Throws SdpError when it is not one (no `v=0`, no origin, no
 * audio section); a description of audio Tributary cannot play is returned with `unplayable`.
 */
export function parseStream(sdp: string): StreamDescription {
  if (!/^v=0\r?$/m.test(sdp.slice(0, 16))) throw new SdpError('does not start with v=0');
  const session = parse(sdp);
  const o = session.origin;
  if (!o || o.username === undefined || text(o.sessionId) === '') {
    throw new SdpError('has no valid o= (origin) line');
  }
  const media = session.media.find((m) => m.type === 'audio');
  if (!media) throw new SdpError('has no m=audio section');
  const port = Number(media.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SdpError(`m=audio has no valid port (${text(media.port)})`);
  }
  const pts = text(media.payloads)
    .split(' ')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0 && n <= 127);
  if (pts.length === 0) throw new SdpError('m=audio lists no payload type');
  const stream = formatOf(media, pts[0]!);
  // Both may be at session level too (RFC 7273); sdp-transform pushes ts-refclk into a list.
  type Clocks = {
    tsRefClocks?: { clksrc: string; clksrcExt?: string }[];
    mediaClk?: typeof media.mediaClk;
  };
  const [m, top] = [media, session] as unknown as [Clocks, Clocks];
  const refclk = m.tsRefClocks?.[0] ?? top.tsRefClocks?.[0];
  const mediaclk = m.mediaClk ?? top.mediaClk;
  return {
    name: text(session.name).trim() || 'Unnamed stream',
    origin: {
      username: text(o.username),
      session_id: text(o.sessionId),
      version: text(o.sessionVersion),
      address: text(o.address),
    },
    address: address(media.connection) ?? address(session.connection),
    port,
    stream,
    ptime: media.ptime === undefined ? null : Number(media.ptime),
    direction: text(media.direction ?? session.direction) || null,
    refclk: refclk
      ? `${refclk.clksrc}${refclk.clksrcExt == null ? '' : `=${refclk.clksrcExt}`}`
      : null,
    mediaclk: mediaclk
      ? `${mediaclk.mediaClockName ?? ''}${mediaclk.mediaClockValue == null ? '' : `=${mediaclk.mediaClockValue}`}`
      : null,
    unplayable: unplayable(stream),
  };
}

/** The `o=` line of an SDP document (what a deletion carries), or null. */
export function originOf(sdp: string): StreamDescription['origin'] | null {
  const o = parse(sdp).origin;
  if (!o || text(o.sessionId) === '') return null;
  return {
    username: text(o.username),
    session_id: text(o.sessionId),
    version: text(o.sessionVersion),
    address: text(o.address),
  };
}

/** What Tributary announces for one RTP sink. */
export interface Announcement {
  readonly name: string;
  readonly info: string;
  /** This host's address (o=). */
  readonly origin: string;
  readonly session_id: string;
  readonly version: number;
  /** Where the stream goes (c=), and its TTL when multicast. */
  readonly destination: string;
  readonly ttl: number;
  readonly port: number;
  readonly payload_type: number;
  readonly encoding: 'L16' | 'L24';
  readonly sample_rate: number;
  readonly channels: number;
  /** Audio per packet, ms. */
  readonly ptime: number;
}

const isMulticast = (ip: string) => {
  if (isIP(ip) === 6) return ip.toLowerCase().startsWith('ff');
  const first = Number(ip.split('.')[0]);
  return first >= 224 && first <= 239;
};

/**
 * The SDP of an announcement: rtpmap, ptime, recvonly, and the clock (RFC 7273) it keeps. Lines
 * end in LF, as PulseAudio and PipeWire write them: RFC 8866 asks parsers to accept that, and
 * PulseAudio's module-rtp-recv refuses CRLF ("invalid header").
 */
export function announcementSdp(a: Announcement): string {
  const v6 = isIP(a.destination) === 6;
  const originV6 = isIP(a.origin) === 6;
  const dest = isMulticast(a.destination) && !v6 ? `${a.destination}/${a.ttl}` : a.destination;
  return write({
    version: 0,
    origin: {
      username: '-',
      sessionId: a.session_id as unknown as number,
      sessionVersion: a.version,
      netType: 'IN',
      ipVer: originV6 ? 6 : 4,
      address: a.origin,
    },
    name: a.name,
    description: a.info,
    connection: { version: v6 ? 6 : 4, ip: dest },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: 'audio',
        port: a.port,
        protocol: 'RTP/AVP',
        payloads: String(a.payload_type),
        fmtp: [],
        rtp: [
          {
            payload: a.payload_type,
            codec: a.encoding,
            rate: a.sample_rate,
            encoding: a.channels,
          },
        ],
        // Two decimals: 288 frames at 44.1 kHz are 6.53 ms.
        ptime: Math.round(a.ptime * 100) / 100,
        direction: 'recvonly',
        // The RTP clock runs on this host's clock, and RTCP sender reports (every 5 s) map it
        // to wall-clock time: the RFC 7273 "sender" media clock.
        tsRefClocks: [{ clksrc: 'local' }],
        mediaClk: { mediaClockName: 'sender' },
      },
    ],
  } as unknown as SessionDescription).replaceAll('\r\n', '\n');
}
