// What an IP address is, for every address the configuration holds (sinks, sources, RTP
// listen addresses, VNC hosts). The audio engine parses addresses with Rust's `IpAddr`, which
// takes plain IPv4 and IPv6 and nothing else; Node's `isIP` also takes an IPv6 zone id
// (`fe80::1%eth0`, `::1%1`), which the engine refused when it was handed one, so every later
// configuration failed to apply. The rule here is Node's minus zone ids, and
// test/robustness/addresses.test.ts keeps it equal to the engine's over a corpus.
import { isIP } from 'node:net';

/** Whether `text` is an IPv4 or IPv6 address the engine takes. */
export function isAddress(text: string): boolean {
  return !text.includes('%') && isIP(text) !== 0;
}
