// The UDP ports a process has bound, read from /proc: the socket inodes among its open files
// (/proc/PID/fd -> socket:[INODE]) matched with the namespace's UDP table (/proc/PID/net/udp
// and udp6, whose local_address column is ADDRESS:PORT in hex).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export function udpPortsOf(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {} // closed meanwhile
  }
  const ports = new Set<number>();
  for (const table of ['udp', 'udp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9]!)) continue;
      ports.add(Number.parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
