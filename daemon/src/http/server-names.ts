// The names and addresses this server answers to, for the Host check (host-check.ts) and the
// HTTP port's redirect. A browser puts in Host the name it connected to. A web page whose own
// name its owner re-points at this machine (DNS rebinding) is, to the browser, on the same
// origin as its requests to that name: Origin and Sec-Fetch-Site then say "same origin", and
// only the Host header, the attacker's name, tells it apart. So only this machine's names and
// addresses are accepted: loopback, localhost, every interface address, the host name and its
// .local name, the mDNS name the server advertises, and the names of ALLOWED_HOSTS.
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** The host part of a Host header (no port) if it is a valid name or address, else null. */
export function validHost(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header);
  if (!m) return null;
  const host = m[1]!;
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6 ? host : null;
  if (isIP(host) === 4) return host;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) return null;
  return host;
}

export interface ServerNamesOptions {
  /** ALLOWED_HOSTS, and the names of a certificate given with CERTIFICATE. */
  readonly allowed?: readonly string[];
  /** The mDNS host label (config.yaml's `mdns.hostname`), read when a name is not known. */
  readonly mdnsLabel?: () => string | null;
  /** The machine's interface addresses and host name (tests give their own). */
  readonly machine?: () => { addresses: string[]; hostname: string };
  /** The clock (tests give their own). */
  readonly now?: () => number;
}

/** An IPv4 address embedded in an IPv4-mapped IPv6 address (`::ffff:7f00:1`), or null. */
function mappedV4(v6: string): string | null {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!m) return null;
  const [hi, lo] = [Number.parseInt(m[1]!, 16), Number.parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * The host of a Host header as a browser would write it (lower case, IP addresses in their
 * canonical form, no port, no brackets, no trailing dot), or null when it is no host name or
 * address at all.
 */
export function hostOf(header: string): string | null {
  if (!validHost(header)) return null;
  let canonical: string;
  try {
    canonical = new URL(`http://${header}/`).hostname; // throws for a port over 65535 too
  } catch {
    return null;
  }
  if (canonical.startsWith('[')) {
    const v6 = canonical.slice(1, -1);
    return mappedV4(v6) ?? v6;
  }
  return canonical.endsWith('.') ? canonical.slice(0, -1) : canonical;
}

/** A name or address as ALLOWED_HOSTS may give it, in the form `hostOf` returns, or null. */
export function allowedName(entry: string): string | null {
  const text = entry.trim();
  if (isIP(text) === 6) return hostOf(`[${text}]`);
  if (/:\d*$/.test(text)) return null; // a name, not a port
  return hostOf(text);
}

function isLoopback(host: string): boolean {
  return (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';
}

function currentMachine(): { addresses: string[]; hostname: string } {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address.replace(/%.*$/, '').toLowerCase())
    .filter((a): a is string => Boolean(a));
  return { addresses, hostname: hostname() };
}

/** How long the machine's addresses and host name are used before they are read again. */
export const MACHINE_NAMES_MAX_AGE_MS = 5000;

export class ServerNames {
  readonly #fixed: Set<string>;
  readonly #mdnsLabel: () => string | null;
  readonly #read: () => { addresses: string[]; hostname: string };
  readonly #now: () => number;
  #machine = new Set<string>();
  #readAt = 0;

  constructor(options: ServerNamesOptions = {}) {
    this.#fixed = new Set(['localhost']);
    for (const entry of options.allowed ?? []) {
      const name = allowedName(entry);
      if (name) this.#fixed.add(name);
    }
    this.#mdnsLabel = options.mdnsLabel ?? (() => null);
    this.#read = options.machine ?? currentMachine;
    this.#now = options.now ?? Date.now;
    this.refresh();
  }

  /** Reads the interface addresses and the host name again (DHCP, a renamed machine). */
  refresh(): void {
    const { addresses, hostname: name } = this.#read();
    const machine = new Set(addresses);
    const full = name.toLowerCase().replace(/\.$/, '');
    const label = full.split('.')[0]!;
    for (const n of [full, label, `${label}.local`]) if (n) machine.add(n);
    this.#machine = machine;
    this.#readAt = this.#now();
  }

  #known(host: string): boolean {
    if (isLoopback(host) || this.#fixed.has(host) || this.#machine.has(host)) return true;
    // The mDNS name: LABEL.local, or LABEL-2.local... when another host had it first.
    const label = this.#mdnsLabel();
    if (label === null || !host.endsWith('.local')) return false;
    const base = host.slice(0, -'.local'.length);
    return (
      base === label || (base.startsWith(`${label}-`) && /^\d+$/.test(base.slice(label.length + 1)))
    );
  }

  /**
   * Whether a Host header names this server. A name not known yet makes the machine's
   * addresses and host name be read again first, so an address acquired since (DHCP) is
   * accepted at once; they are also read again when older than MACHINE_NAMES_MAX_AGE_MS, so one
   * given up is no longer accepted after that.
   */
  accepts(header: string): boolean {
    const host = hostOf(header);
    if (host === null) return false;
    if (this.#now() - this.#readAt > MACHINE_NAMES_MAX_AGE_MS) this.refresh();
    if (this.#known(host)) return true;
    this.refresh();
    return this.#known(host);
  }
}
