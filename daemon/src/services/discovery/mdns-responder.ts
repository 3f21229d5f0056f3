// Answers mDNS queries from what bonjour-service has registered (in place of its own responder,
// which sends one response per question with everything it knows). One response per query, each
// answer with the records that resolve it (a PTR's SRV, TXT and address records, RFC 6763
// section 12), minus what the querier already knows (RFC 6762 section 7.1: a known answer with
// at least half our TTL is not sent again). A query with the TC bit is followed by more packets
// of known answers (packets without questions from the same address and port): they are
// gathered for up to 450 ms before answering (section 7.2). With
// many records advertised this keeps the repeated queries of a browser from being answered with
// everything each time, which a burst of packets can overflow.
import { type DnsRecord, recordKey } from './mdns-packets.js';

/** How long the known answers of a truncated query are gathered (RFC 6762: 400-500 ms). */
const TRUNCATED_WAIT_MS = 450;
/** Queriers whose truncated queries are gathered at once; beyond, a query is answered as is. */
const MAX_PENDING = 64;

interface Question {
  name: string;
  type: string;
}

export interface QueryPacket {
  questions?: Question[];
  answers?: DnsRecord[];
  flag_tc?: boolean;
}

/** What bonjour-service's server holds: its registered records, by type. */
export interface RecordSource {
  registry: Record<string, DnsRecord[]>;
}

interface Pending {
  questions: Question[];
  known: DnsRecord[];
  timer: NodeJS.Timeout;
}

export class MdnsResponder {
  readonly #server: RecordSource;
  readonly #respond: (response: { answers: DnsRecord[]; additionals: DnsRecord[] }) => void;
  readonly #pending = new Map<string, Pending>();
  /** Responses not sent: everything they would hold was known already. */
  suppressed = 0;

  constructor(
    server: RecordSource,
    respond: (response: { answers: DnsRecord[]; additionals: DnsRecord[] }) => void,
  ) {
    this.#server = server;
    this.#respond = respond;
  }

  /** One query packet from `from` (address and port). */
  query(packet: QueryPacket, from: { address: string; port: number }): void {
    const key = `${from.address}:${from.port}`;
    const questions = packet.questions ?? [];
    const known = packet.answers ?? [];
    const pending = this.#pending.get(key);
    if (pending && questions.length === 0) {
      // A continuation: more known answers for the truncated query waiting.
      pending.known.push(...known);
      if (!packet.flag_tc) this.#flush(key);
      return;
    }
    // A new query (two programs on one host share address and port 5353): the one waiting is
    // answered first, on what it had.
    if (pending) this.#flush(key);
    if (packet.flag_tc && this.#pending.size < MAX_PENDING) {
      const timer = setTimeout(() => this.#flush(key), TRUNCATED_WAIT_MS);
      timer.unref();
      this.#pending.set(key, { questions: [...questions], known: [...known], timer });
      return;
    }
    this.#answer(questions, known);
  }

  #flush(key: string): void {
    const pending = this.#pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(key);
    this.#answer(pending.questions, pending.known);
  }

  #answer(questions: Question[], knownRecords: DnsRecord[]): void {
    if (questions.length === 0) return;
    const known = new Map<string, number>();
    for (const r of knownRecords) known.set(recordKey(r), r.ttl ?? 0);
    const isKnown = (r: DnsRecord) => (known.get(recordKey(r)) ?? -1) >= (r.ttl ?? 0) / 2;
    const answers = new Map<string, DnsRecord>();
    const additionals = new Map<string, DnsRecord>();
    // The records by type and name, once per response (thousands of records, looked up often).
    const registry = this.#server.registry;
    const index = new Map<string, DnsRecord[]>();
    for (const [type, list] of Object.entries(registry)) {
      for (const r of list) {
        const k = `${type} ${String(r.name).toLowerCase()}`;
        const at = index.get(k);
        if (at) at.push(r);
        else index.set(k, [r]);
      }
    }
    const recordsFor = (name: unknown, type: string) =>
      index.get(`${type} ${String(name).toLowerCase()}`) ?? [];
    for (const q of questions) {
      const found =
        q.type === 'ANY'
          ? Object.keys(registry).flatMap((type) => recordsFor(q.name, type))
          : recordsFor(q.name, q.type);
      for (const r of found) if (!isKnown(r)) answers.set(recordKey(r), r);
    }
    if (answers.size === 0) {
      this.suppressed += 1;
      return;
    }
    const extra = (r: DnsRecord) => {
      const k = recordKey(r);
      if (!answers.has(k)) additionals.set(k, r);
    };
    for (const a of answers.values()) {
      if (a.type === 'PTR') {
        for (const type of ['SRV', 'TXT']) for (const r of recordsFor(a.data, type)) extra(r);
      }
    }
    for (const r of [...answers.values(), ...additionals.values()]) {
      if (r.type !== 'SRV') continue;
      const target = (r.data as { target: string }).target;
      for (const type of ['A', 'AAAA']) for (const a of recordsFor(target, type)) extra(a);
    }
    this.#respond({ answers: [...answers.values()], additionals: [...additionals.values()] });
  }

  stop(): void {
    for (const p of this.#pending.values()) clearTimeout(p.timer);
    this.#pending.clear();
  }
}
