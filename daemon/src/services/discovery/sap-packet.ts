// SAP packets (RFC 2974): the 4-byte header, the originating source, optional authentication
// data, an optional payload type ("application/sdp") and the payload, possibly zlib-compressed.
//
//  0                   1                   2                   3
//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
// | V=1 |A|R|T|E|C|   auth len    |         msg id hash           |
// |              originating source (32 or 128 bits)              |
// |          optional authentication data (auth len words)        |
// |       optional payload type, NUL-terminated      |  payload   |
import { isIP } from 'node:net';
import { inflateSync } from 'node:zlib';

export type SapMessageType = 'announce' | 'delete';

export interface SapPacket {
  readonly type: SapMessageType;
  /** Message identifier hash: with the source, names this version of the announcement. */
  readonly hash: number;
  /** Originating source address. */
  readonly source: string;
  /** The payload type (RFC 2974 lets it out, meaning application/sdp). */
  readonly payloadType: string;
  /** The payload as text (an SDP document, or for deletions possibly just its o= line). */
  readonly payload: string;
}

/** Why a datagram is not a usable SAP packet: `reason` names the counter it is dropped under. */
export class SapPacketError extends Error {
  override name = 'SapPacketError';
  constructor(
    readonly reason: 'malformed' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

/** Largest payload accepted, also after decompression (SAP packets stay under 1 kB). */
export const MAX_PAYLOAD = 64 * 1024;
export const SDP_TYPE = 'application/sdp';

const V1 = 0x20;
const ADDRESS_V6 = 0x10;
const DELETE = 0x04;
const ENCRYPTED = 0x02;
const COMPRESSED = 0x01;

const malformed = (message: string) => new SapPacketError('malformed', message);

function ipv6(bytes: Buffer): string {
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(bytes.readUInt16BE(i).toString(16));
  return words.join(':');
}

/** Decodes a datagram; throws SapPacketError saying what is wrong with it. */
export function decodeSap(datagram: Buffer): SapPacket {
  if (datagram.length < 8) throw malformed(`${datagram.length} bytes: shorter than a header`);
  const flags = datagram[0]!;
  if (flags >> 5 !== 1) throw malformed(`version ${flags >> 5} (SAP is version 1)`);
  const v6 = (flags & ADDRESS_V6) !== 0;
  const sourceEnd = 4 + (v6 ? 16 : 4);
  const authEnd = sourceEnd + datagram[1]! * 4;
  if (datagram.length <= authEnd) throw malformed('truncated before the payload');
  if (flags & ENCRYPTED) throw new SapPacketError('unsupported', 'encrypted announcement');
  const source = v6
    ? ipv6(datagram.subarray(4, 20))
    : Array.from(datagram.subarray(4, 8)).join('.');
  let body = datagram.subarray(authEnd);
  if (flags & COMPRESSED) {
    try {
      body = inflateSync(body, { maxOutputLength: MAX_PAYLOAD });
    } catch (err) {
      throw malformed(`compressed payload does not inflate: ${(err as Error).message}`);
    }
  }
  let payloadType = SDP_TYPE;
  // The payload type is optional: a payload starting with "v=0" has none.
  if (!body.subarray(0, 3).equals(Buffer.from('v=0'))) {
    const nul = body.indexOf(0);
    if (nul < 0 || nul > 128) throw malformed('no NUL-terminated payload type');
    payloadType = body.subarray(0, nul).toString('latin1');
    body = body.subarray(nul + 1);
  }
  if (body.length === 0) throw malformed('empty payload');
  if (body.length > MAX_PAYLOAD) throw malformed(`payload of ${body.length} bytes`);
  const payload = body.toString('utf8');
  if (payload.includes('\u0000')) throw malformed('payload is not text (NUL byte)');
  return {
    type: flags & DELETE ? 'delete' : 'announce',
    hash: datagram.readUInt16BE(2),
    source,
    payloadType,
    payload,
  };
}

export interface SapPacketInput {
  readonly type: SapMessageType;
  readonly hash: number;
  readonly source: string;
  readonly payload: string;
  /** Written before the payload unless null (default application/sdp). */
  readonly payloadType?: string | null;
}

/** Encodes an uncompressed, unauthenticated SAP packet. */
export function encodeSap(p: SapPacketInput): Buffer {
  const family = isIP(p.source);
  if (family === 0) throw new Error(`not an IP address: ${p.source}`);
  const header = Buffer.alloc(4);
  header[0] = V1 | (family === 6 ? ADDRESS_V6 : 0) | (p.type === 'delete' ? DELETE : 0);
  header[1] = 0;
  header.writeUInt16BE(p.hash & 0xffff, 2);
  const source = family === 4 ? Buffer.from(p.source.split('.').map(Number)) : v6Bytes(p.source);
  const type = p.payloadType === null ? '' : `${p.payloadType ?? SDP_TYPE}\u0000`;
  return Buffer.concat([header, source, Buffer.from(type, 'latin1'), Buffer.from(p.payload)]);
}

function v6Bytes(address: string): Buffer {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, ''];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const words = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  for (const [i, w] of words.entries()) out.writeUInt16BE(Number.parseInt(w, 16), i * 2);
  return out;
}

/** A 16-bit message hash of a payload (never 0, which some receivers treat as "no hash"). */
export function sapHash(payload: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < payload.length; i++) {
    h ^= payload.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h >>> 16) ^ (h & 0xffff) || 1;
}
