// The WebSocket feeds (/ws/config, /ws/stats, /ws/levels) and clients that do not read. Sending
// to a socket only queues the message, so a client that stops reading (a suspended laptop, a
// hostile page, a slow link) would make the daemon hold every message for it. Before each
// message a feed looks at what the socket has not sent: what the daemon holds
// (`bufferedAmount`) plus the kernel's TCP send queue. /ws/config closes a socket past
// FEED_BACKLOG_BOUND (code 4008: the client connects again and gets the latest configuration);
// /ws/stats and /ws/levels, where each message replaces the last, skip a message while the
// previous one is still in the daemon or the kernel holds more than LOSSY_KERNEL_BOUND, so a
// slow client gets the latest state once it catches up and the daemon holds at most one
// message for it. Every close and skip is counted (`feeds` in /api/stats) and logged at a
// bounded rate.
import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { kernelSendQueue } from '../http/send-queue.js';
import {
  CLOSE_GRACE_MS,
  CLOSE_TOO_SLOW,
  FEED_BACKLOG_BOUND,
  type FeedCounters,
  type FeedsStats,
  LOSSY_KERNEL_BOUND,
} from '../schema/feeds.js';
import { RateLimitedLog } from './discovery/log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket feeds' guard against clients that do not read, and its counters. */
    feeds: Feeds;
  }
}

export type FeedName = 'config' | 'stats' | 'levels';

/** What a feed does with a socket that falls behind. */
const POLICY: Record<FeedName, 'close' | 'skip'> = {
  config: 'close',
  stats: 'skip',
  levels: 'skip',
};

/**
 * A message, or how to make it: a function is called only when the message is sent, so a
 * skipped message costs nothing to make. Sent as JSON text, or a Uint8Array as a binary frame.
 */
export type FeedMessage = object | (() => object);

/** One feed socket: `send` applies the feed's policy; `socket` is the WebSocket. */
export interface FeedSocket {
  readonly socket: WebSocket;
  send(message: FeedMessage): void;
}

/** 512 KiB, 1 MiB, 1.5 MiB. */
function size(bytes: number): string {
  if (bytes < 1 << 20) return `${Math.round(bytes / 1024)} KiB`;
  return `${Number((bytes / (1 << 20)).toFixed(1))} MiB`;
}

/** The WebSocket's underlying connection (ws keeps it as `_socket`). */
const connectionOf = (socket: WebSocket) => (socket as unknown as { _socket?: unknown })._socket;

export class Feeds {
  readonly #counters: Record<FeedName, FeedCounters> = {
    config: { clients: 0, messages: 0, skipped: 0, closed_slow: 0 },
    stats: { clients: 0, messages: 0, skipped: 0, closed_slow: 0 },
    levels: { clients: 0, messages: 0, skipped: 0, closed_slow: 0 },
  };
  readonly #log: RateLimitedLog;

  constructor(warn: (message: string) => void) {
    this.#log = new RateLimitedLog(warn, 5);
  }

  /** The counters, for /api/stats. */
  stats(): FeedsStats {
    const copy = (c: FeedCounters) => ({ ...c });
    const { config, stats, levels } = this.#counters;
    return {
      bound_bytes: FEED_BACKLOG_BOUND,
      config: copy(config),
      stats: copy(stats),
      levels: copy(levels),
    };
  }

  /** Starts guarding `socket` as a client of `feed`; `request` names the client in the log. */
  open(socket: WebSocket, feed: FeedName, request: FastifyRequest): FeedSocket {
    const counters = this.#counters[feed];
    // (A socket injected in tests has no address.)
    const peer = `${request.ip ?? '?'}:${request.socket?.remotePort ?? '?'}`;
    const connection = connectionOf(socket);
    let skipping = false;
    counters.clients += 1;
    socket.once('close', () => {
      counters.clients -= 1;
    });
    const send = (message: FeedMessage) => {
      if (socket.readyState !== socket.OPEN) return;
      const held = socket.bufferedAmount;
      const kernel = kernelSendQueue(connection);
      if (POLICY[feed] === 'skip') {
        if (held > 0 || kernel > LOSSY_KERNEL_BOUND) {
          counters.skipped += 1;
          if (!skipping) {
            skipping = true;
            this.#log.write(
              `/ws/${feed} of ${peer} is not keeping up (${size(held)} in the daemon, ` +
                `${size(kernel)} in the kernel): skipping messages until it catches up`,
            );
          }
          return;
        }
        skipping = false;
      } else if (held + kernel > FEED_BACKLOG_BOUND) {
        this.#closeSlow(socket, feed, peer, held, kernel);
        return;
      }
      counters.messages += 1;
      const made = typeof message === 'function' ? message() : message;
      // A binary frame (levels with encoding=binary) as it is; anything else as JSON text.
      socket.send(made instanceof Uint8Array ? made : JSON.stringify(made));
    };
    return { socket, send };
  }

  #closeSlow(socket: WebSocket, feed: FeedName, peer: string, held: number, kernel: number) {
    this.#counters[feed].closed_slow += 1;
    this.#log.write(
      `closed /ws/${feed} of ${peer}: too slow (${size(held)} in the daemon and ${size(kernel)} ` +
        `in the kernel unsent, more than ${size(FEED_BACKLOG_BOUND)}); a client that reads ` +
        'connects again and gets the latest state',
    );
    socket.close(CLOSE_TOO_SLOW, `too slow: more than ${size(FEED_BACKLOG_BOUND)} unsent`);
    // The close frame waits behind what is queued; a client that does not read it in time is
    // cut, and what was queued for it freed.
    setTimeout(() => {
      if (socket.readyState !== socket.CLOSED) socket.terminate();
    }, CLOSE_GRACE_MS).unref();
  }
}

export default fp(
  async (fastify: FastifyInstance) => {
    const log = fastify.log.child({ component: 'websockets' });
    fastify.decorate('feeds', new Feeds((m) => log.warn(m)));
  },
  { name: 'feeds', fastify: '5.x' },
);
