// One WebSocket-to-TCP bridge between a browser's VNC viewer and a source's VNC server. Nothing
// is relayed either way until the server has greeted with an RFB ProtocolVersion (greeting.ts):
// the browser's first bytes wait (at most MAX_EARLY_BYTES), the server has GREETING_TIMEOUT_MS to
// connect and greet, and a server that says anything else is left at once. Each such refusal
// closes the socket with a code and a reason the dashboard's viewer shows, and is counted and
// logged (`refusals.vnc_not_rfb` in /api/stats). Then bytes pass both ways untouched.
import type { Socket } from 'node:net';
import type { WebSocket } from '@fastify/websocket';
import { excerpt, GREETING_TIMEOUT_MS, greetingState, MAX_EARLY_BYTES } from './greeting.js';

/** Bytes queued towards a slow browser before the TCP side is paused. */
const HIGH_WATER = 1 << 20;

/** WebSocket close codes. */
export const CLOSE_ENDED = 1000;
/** The browser sent more than MAX_EARLY_BYTES before the server greeted (1009 Message Too Big). */
export const CLOSE_TOO_EARLY = 1009;
/** The VNC server could not be reached, or the connection to it failed. */
export const CLOSE_UNREACHABLE = 4502;
/** The server greeted with something other than an RFB version: not a VNC server. */
export const CLOSE_NOT_VNC = 4503;
/** The server did not connect and greet within GREETING_TIMEOUT_MS. */
export const CLOSE_NO_GREETING = 4504;

export interface BridgeTarget {
  /** The source the desktop belongs to (for the log). */
  readonly source: string;
  /** host:port as shown (IPv6 in brackets). */
  readonly where: string;
  /** Counts and logs a refusal (the bridge closed before relaying anything). */
  readonly refused: (message: string) => void;
}

/** A close reason is at most 123 bytes of UTF-8; ours are ASCII apart from the source's name. */
function reason(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}

export function bridge(socket: WebSocket, tcp: Socket, target: BridgeTarget): void {
  const { where } = target;
  let connected = false;
  let greeted = false;
  let head = Buffer.alloc(0);
  const early: Buffer[] = [];
  let earlyBytes = 0;

  const refuse = (code: number, why: string, logged: string) => {
    clearTimeout(timer);
    tcp.destroy();
    target.refused(`VNC bridge of source '${target.source}' closed: ${logged}`);
    if (socket.readyState === socket.OPEN) socket.close(code, reason(why));
  };
  const timer = setTimeout(() => {
    const seconds = GREETING_TIMEOUT_MS / 1000;
    if (!connected) {
      const why = `cannot reach ${where}: no answer within ${seconds} s`;
      return refuse(CLOSE_NO_GREETING, why, why);
    }
    const why = `${where} sent no VNC greeting within ${seconds} s: is it a VNC server?`;
    refuse(
      CLOSE_NO_GREETING,
      why,
      `${why} (received ${head.length === 0 ? 'nothing' : excerpt(head)})`,
    );
  }, GREETING_TIMEOUT_MS);

  const toBrowser = (chunk: Buffer) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(chunk, { binary: true });
    if (socket.bufferedAmount > HIGH_WATER) {
      tcp.pause();
      const resume = setInterval(() => {
        if (socket.readyState !== socket.OPEN || socket.bufferedAmount < HIGH_WATER / 4) {
          clearInterval(resume);
          tcp.resume();
        }
      }, 10);
    }
  };

  tcp.on('connect', () => {
    connected = true;
    tcp.setNoDelay(true);
  });
  tcp.on('data', (chunk: Buffer) => {
    if (greeted) return toBrowser(chunk);
    head = Buffer.concat([head, chunk]);
    const state = greetingState(head);
    if (state === 'partial') return;
    if (state === 'wrong') {
      return refuse(
        CLOSE_NOT_VNC,
        `${where} is not a VNC server: it did not greet with an RFB protocol version`,
        `${where} is not a VNC server: it sent ${excerpt(head)} instead of an RFB protocol ` +
          'version ("RFB 003.008\\n", RFC 6143 7.1.1); nothing was relayed',
      );
    }
    greeted = true;
    clearTimeout(timer);
    toBrowser(head);
    for (const c of early.splice(0)) tcp.write(c);
  });
  tcp.on('error', (err) => {
    clearTimeout(timer);
    if (socket.readyState !== socket.OPEN) return;
    const why = connected ? `connection to ${where} failed` : `cannot reach ${where}`;
    socket.close(CLOSE_UNREACHABLE, reason(`${why}: ${err.message}`));
  });
  tcp.on('close', () => {
    clearTimeout(timer);
    if (socket.readyState !== socket.OPEN) return;
    if (greeted) socket.close(CLOSE_ENDED, reason(`${where} closed the connection`));
    else {
      const why = `${where} closed the connection without a VNC greeting: is it a VNC server?`;
      target.refused(`VNC bridge of source '${target.source}' closed: ${why}`);
      socket.close(CLOSE_NOT_VNC, reason(why));
    }
  });
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunks = Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)];
    if (greeted) {
      for (const c of chunks) tcp.write(c);
      return;
    }
    for (const c of chunks) earlyBytes += c.length;
    if (earlyBytes > MAX_EARLY_BYTES) {
      const why = `the viewer sent more than ${MAX_EARLY_BYTES} bytes before ${where} greeted`;
      return refuse(CLOSE_TOO_EARLY, why, why);
    }
    early.push(...chunks);
  });
  socket.on('close', () => {
    clearTimeout(timer);
    tcp.destroy();
  });
  socket.on('error', () => {
    clearTimeout(timer);
    tcp.destroy();
  });
}
