// What the WebSocket feeds did with clients that do not keep up (`feeds` in /api/stats): the
// bound on what a feed socket may leave unsent, and per feed its clients, messages sent,
// messages skipped and sockets closed for being too slow.
import { type Static, Type } from '@sinclair/typebox';

/** Unsent data (the daemon's buffer and the kernel's send queue) a /ws/config socket may have. */
export const FEED_BACKLOG_BOUND = 1 << 20;
/** What the kernel may hold of a lossy feed's messages before the next is skipped. */
export const LOSSY_KERNEL_BOUND = 64 << 10;
/** The close code of a socket closed for being too slow; the client reconnects. */
export const CLOSE_TOO_SLOW = 4008;
/** How long a closed slow socket gets to take its close frame before it is cut. */
export const CLOSE_GRACE_MS = 5000;

const count = (description: string) => Type.Integer({ minimum: 0, description });

const FeedCounters = Type.Object(
  {
    clients: count('Sockets open now.'),
    messages: count('Messages sent.'),
    skipped: count(
      'Messages not sent because the socket still held an earlier one (stats and levels: a ' +
        'slow client gets the latest state when it catches up, never a backlog).',
    ),
    closed_slow: count(
      `Sockets closed with code ${CLOSE_TOO_SLOW} because more than the bound stayed unsent ` +
        '(config: the client reconnects and gets the whole configuration).',
    ),
  },
  { additionalProperties: false },
);
export type FeedCounters = Static<typeof FeedCounters>;

export const FeedsStats = Type.Object(
  {
    bound_bytes: Type.Integer({
      description:
        'Unsent data a /ws/config socket may have (what the daemon holds plus the kernel’s ' +
        'send queue) before it is closed.',
      examples: [FEED_BACKLOG_BOUND],
    }),
    config: FeedCounters,
    stats: FeedCounters,
    levels: FeedCounters,
  },
  {
    additionalProperties: false,
    description:
      'The WebSocket feeds and clients that do not read: /ws/config closes a socket with more ' +
      `than bound_bytes unsent (code ${CLOSE_TOO_SLOW}); /ws/stats and /ws/levels skip a ` +
      'message while the previous one has not left the daemon or the kernel holds more than ' +
      `${LOSSY_KERNEL_BOUND / 1024} KiB.`,
  },
);
export type FeedsStats = Static<typeof FeedsStats>;
