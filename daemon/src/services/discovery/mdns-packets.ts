// mDNS responses within the size limit (RFC 6762 section 17): a packet, IP and UDP headers
// included, should fit the interface MTU and must not exceed 9000 bytes. A response with more
// records (1,000 advertised sources answer one PTR query with 1,000 PTR records and their SRV,
// TXT and A records) is split over several packets, each answer with the records that resolve
// it (a PTR's SRV and TXT, an SRV's address records) in the same packet.
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';

/** RFC 6762 section 17: no mDNS packet larger than this, headers included. */
export const MDNS_MAX_PACKET = 9000;
/** IPv4 and UDP headers. */
const IP_UDP_HEADERS = 28;
const DNS_HEADER = 12;
/** The MTU assumed where the system does not say (not Linux). */
const DEFAULT_MTU = 1500;

export interface DnsRecord {
  name: string;
  type: string;
  ttl?: number;
  class?: string;
  flush?: boolean;
  data?: unknown;
}

export interface DnsResponse {
  type?: string;
  id?: number;
  flags?: number;
  questions?: { name: string; type: string }[];
  answers?: DnsRecord[];
  authorities?: DnsRecord[];
  additionals?: DnsRecord[];
}

/**
 * The largest DNS message (after IP and UDP headers) a packet may carry: the smallest MTU of the
 * machine's non-loopback interfaces (on Linux, /sys/class/net/NAME/mtu), 9000 at most.
 */
export function mdnsPayloadLimit(): number {
  let mtu = Number.POSITIVE_INFINITY;
  for (const [name, addresses] of Object.entries(networkInterfaces())) {
    if (!addresses?.some((a) => !a.internal && a.family === 'IPv4')) continue;
    try {
      const value = Number(readFileSync(`/sys/class/net/${name}/mtu`, 'utf8'));
      if (value >= 576) mtu = Math.min(mtu, value);
    } catch {
      mtu = Math.min(mtu, DEFAULT_MTU);
    }
  }
  if (!Number.isFinite(mtu)) mtu = DEFAULT_MTU;
  return Math.min(mtu, MDNS_MAX_PACKET) - IP_UDP_HEADERS;
}

/** A name as dns-packet writes it: labels with their length bytes, no compression. */
function nameBytes(name: string): number {
  if (name === '.' || name === '..' || name === '') return 1;
  return Buffer.byteLength(name.replace(/^\.|\.$/g, '')) + 2;
}

function txtBytes(data: unknown): number {
  const list = Array.isArray(data) ? data : [data];
  let n = 0;
  for (const s of list)
    n += (typeof s === 'string' ? Buffer.byteLength(s) : (s as Buffer).length) + 1;
  return n;
}

/** The bytes one record takes in a message (dns-packet does not compress names). */
export function recordBytes(r: DnsRecord): number {
  const fixed = nameBytes(r.name) + 10; // type, class, ttl, rdlength
  switch (r.type) {
    case 'A':
      return fixed + 4;
    case 'AAAA':
      return fixed + 16;
    case 'PTR':
    case 'CNAME':
      return fixed + nameBytes(String(r.data));
    case 'SRV':
      return fixed + 6 + nameBytes(String((r.data as { target: string }).target));
    case 'TXT':
      return fixed + txtBytes(r.data ?? []);
    default:
      // A type this module does not size (bonjour-service sends none): it goes in a packet of
      // its own, and the encoder sizes it.
      return Number.POSITIVE_INFINITY;
  }
}

const lower = (s: unknown) => String(s).toLowerCase();

/** A record's identity: type, name and data (names compared without case). */
export function recordKey(r: DnsRecord): string {
  const d = r.data as unknown;
  let data: string;
  if (r.type === 'PTR' || r.type === 'CNAME') data = lower(d);
  else if (r.type === 'SRV') {
    const srv = d as { port: number; target: string };
    data = `${srv.port} ${lower(srv.target)}`;
  } else if (r.type === 'TXT') {
    const list = Array.isArray(d) ? d : [d];
    data = list.map((b) => Buffer.from(b as Buffer | string).toString('hex')).join('.');
  } else data = JSON.stringify(d);
  return `${r.type} ${lower(r.name)} ${data}`;
}

/** The additional records that resolve `answer`: a PTR's SRV and TXT, an SRV's A and AAAA. */
function related(answer: DnsRecord, byName: Map<string, DnsRecord[]>): DnsRecord[] {
  const out: DnsRecord[] = [];
  const named = (name: unknown, types: readonly string[]) =>
    (byName.get(lower(name)) ?? []).filter((r) => types.includes(r.type));
  const addressesOf = (host: unknown) => named(host, ['A', 'AAAA']);
  if (answer.type === 'PTR') {
    for (const r of named(answer.data, ['SRV', 'TXT'])) {
      out.push(r);
      if (r.type === 'SRV') out.push(...addressesOf((r.data as { target: string }).target));
    }
  } else if (answer.type === 'SRV') {
    out.push(...addressesOf((answer.data as { target: string }).target));
  }
  return out;
}

export interface Split {
  /** The packets to send, in order; each within `limit` bytes unless one record alone is not. */
  readonly packets: DnsResponse[];
  /** Records larger than a packet may be at all (9000 bytes): not sent. */
  readonly dropped: DnsRecord[];
}

/**
 * Splits a response into packets of at most `limit` bytes (DNS header included). Answers keep
 * their order, each with the additionals that resolve it; additionals that resolve no answer
 * follow. A record too large for `limit` goes in a packet of its own if it fits the hard limit
 * (9000 bytes with headers), else is dropped.
 */
export function splitResponse(response: DnsResponse, limit: number): Split {
  const answers = response.answers ?? [];
  const additionals = response.additionals ?? [];
  const hard = MDNS_MAX_PACKET - IP_UDP_HEADERS;
  const base = DNS_HEADER;
  const packets: DnsResponse[] = [];
  const dropped: DnsRecord[] = [];
  const used = new Set<DnsRecord>();
  let answersOut: DnsRecord[] = [];
  let extrasOut: DnsRecord[] = [];
  let keys = new Set<string>();
  let size = base;
  const close = () => {
    if (answersOut.length + extrasOut.length === 0) return;
    const { answers: _a, additionals: _d, ...rest } = response;
    packets.push({ ...rest, answers: answersOut, additionals: extrasOut });
    answersOut = [];
    extrasOut = [];
    keys = new Set();
    size = base;
  };
  const keyMemo = new Map<DnsRecord, string>();
  const keyOf = (r: DnsRecord) => {
    let k = keyMemo.get(r);
    if (k === undefined) {
      k = recordKey(r);
      keyMemo.set(r, k);
    }
    return k;
  };
  /** Bytes `records` add to the current packet (records already in it cost nothing). */
  const cost = (records: DnsRecord[]) => {
    let n = 0;
    const local = new Set<string>();
    for (const r of records) {
      const k = keyOf(r);
      if (keys.has(k) || local.has(k)) continue;
      local.add(k);
      n += recordBytes(r);
    }
    return n;
  };
  /** Puts a group (one answer or additional with what resolves it) in the current packet. */
  const place = (answer: DnsRecord | null, extras: DnsRecord[]) => {
    const group = answer ? [answer, ...extras] : extras;
    let bytes = cost(group);
    if (size + bytes > limit && size > base) {
      close();
      bytes = cost(group);
    }
    if (size + bytes > limit && group.length > 1) {
      // Too large together: each record on its own.
      if (answer) place(answer, []);
      for (const r of extras) place(null, [r]);
      return;
    }
    if (group.length === 1 && Number.isFinite(bytes) && base + bytes > hard) {
      dropped.push(group[0]!);
      used.add(group[0]!);
      return;
    }
    for (const r of group) {
      const k = keyOf(r);
      if (keys.has(k)) continue;
      keys.add(k);
      if (r === answer) answersOut.push(r);
      else extrasOut.push(r);
      used.add(r);
    }
    size += bytes;
    if (size > limit) close(); // a lone record over the soft limit: its own packet
  };
  const byName = new Map<string, DnsRecord[]>();
  for (const r of additionals) {
    const list = byName.get(lower(r.name));
    if (list) list.push(r);
    else byName.set(lower(r.name), [r]);
  }
  for (const answer of answers) place(answer, related(answer, byName));
  for (const r of additionals) if (!used.has(r)) place(null, [r]);
  close();
  return { packets, dropped };
}
