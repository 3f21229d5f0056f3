// The UDP sockets a process has bound, read from /proc: the socket inodes among its open files
// (/proc/PID/fd -> socket:[INODE]) matched with the namespace's UDP table (/proc/PID/net/udp
// and udp6, whose local_address column is ADDRESS:PORT in hex and whose last column counts the
// datagrams the kernel dropped because the socket's receive buffer was full).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface UdpSocket {
  readonly port: number;
  /** Datagrams the kernel dropped for this socket (its receive buffer was full). */
  readonly drops: number;
  /** Bytes waiting in its receive queue, not yet read by the process. */
  readonly queued: number;
}

export function udpSocketsOf(pid: number): UdpSocket[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {} // closed meanwhile
  }
  const sockets: UdpSocket[] = [];
  for (const table of ['udp', 'udp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      // ref pointer drops
      const f = line.trim().split(/\s+/);
      if (f.length < 13 || !inodes.has(f[9]!)) continue;
      sockets.push({
        port: Number.parseInt(f[1]!.split(':')[1]!, 16),
        drops: Number(f[12]),
        queued: Number.parseInt(f[4]!.split(':')[1]!, 16),
      });
    }
  }
  return sockets;
}

export function udpPortsOf(pid: number): number[] {
  return [...new Set(udpSocketsOf(pid).map((s) => s.port))].sort((a, b) => a - b);
}

/** `field` summed over the sockets `pid` has bound to `port`. */
function sumFor(pid: number, port: number, field: 'drops' | 'queued'): number {
  return udpSocketsOf(pid)
    .filter((s) => s.port === port)
    .reduce((n, s) => n + s[field], 0);
}

/** Datagrams the kernel dropped so far for the sockets `pid` has bound to `port`. */
export function kernelDrops(pid: number, port: number): number {
  return sumFor(pid, port, 'drops');
}

/** Bytes waiting unread in the receive queues of the sockets `pid` has bound to `port`. */
export function queuedBytes(pid: number, port: number): number {
  return sumFor(pid, port, 'queued');
}
