// What the VNC bridge waits for before it relays anything: the server's RFB ProtocolVersion
// (RFC 6143 section 7.1.1), the 12 bytes "RFB xxx.yyy\n" every VNC server sends first, as soon
// as a client connects (003.003, 003.007 and 003.008 of the RFC; 003.889 of Apple's, 004.001
// and 005.000 of RealVNC's; 000.000 of UltraVNC's repeater). Without it the bridge would be a
// TCP proxy to whatever the source's vnc_ip:vnc_port is: a web page could have the daemon read
// a loopback-only service's banner or talk to its own HTTP port. Servers that greet otherwise
// (HTTP and TLS servers say nothing, SSH and SMTP name themselves) are not VNC servers.

/** Bytes of the greeting. */
export const GREETING_LENGTH = 12;
/** How long the server has to connect and greet. */
export const GREETING_TIMEOUT_MS = 5000;
/** Bytes the browser may send before the greeting (noVNC sends none: it answers it). */
export const MAX_EARLY_BYTES = 4096;

const DIGIT = (c: number) => c >= 0x30 && c <= 0x39;
/** What each byte of "RFB xxx.yyy\n" may be. */
const TEMPLATE: ((c: number) => boolean)[] = [
  ...[...'RFB '].map((ch) => (c: number) => c === ch.charCodeAt(0)),
  DIGIT,
  DIGIT,
  DIGIT,
  (c) => c === 0x2e, // '.'
  DIGIT,
  DIGIT,
  DIGIT,
  (c) => c === 0x0a, // '\n'
];

/**
 * Whether the server's first bytes so far are an RFB greeting: `complete` once its 12 bytes
 * have come, `partial` while they still can, `wrong` as soon as one byte cannot be part of it.
 */
export function greetingState(head: Buffer): 'complete' | 'partial' | 'wrong' {
  const n = Math.min(head.length, GREETING_LENGTH);
  for (let i = 0; i < n; i++) if (!TEMPLATE[i]!(head[i]!)) return 'wrong';
  return head.length >= GREETING_LENGTH ? 'complete' : 'partial';
}

/** The start of what a server sent instead, for the log (quoted, control bytes escaped). */
export function excerpt(head: Buffer, max = 32): string {
  const text = JSON.stringify(head.subarray(0, max).toString('latin1'));
  return head.length > max ? `${text}...` : text;
}
