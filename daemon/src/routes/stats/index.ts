import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LOSSY_KERNEL_BOUND } from '../../schema/feeds.js';
import { StatsMessage } from '../../schema/stats.js';
import { errors, feed, upgradeRequired, webSocket } from '../shared.js';

const tags = ['System'];
/** How often /ws/stats pushes a message. */
export const STATS_INTERVAL_MS = 1000;

/** GET /api/stats and /ws/stats: the engine's counters for every source and sink. */
const statsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const engine = fastify.engine;
  // The discovery service registers after the engine; looked up when a message is made.
  const stats = () => ({
    ...engine.stats(),
    discovery: fastify.discovery.summary(),
    streams: [...fastify.streams.stats(), ...fastify.whep.stats()],
    feeds: fastify.feeds.stats(),
    refusals: fastify.refusals.stats(),
    plugins: fastify.productPlugins.stats(),
  });

  fastify.get(
    '/api/stats',
    {
      schema: {
        tags,
        operationId: 'getStats',
        summary: 'Audio engine statistics',
        description:
          'Per source: packets, bytes, lost, late, reordered, malformed, jitter, buffer level, ' +
          'clock drift and detected format. Per sink: packets, underruns, queue. The engine: ' +
          'state, CPU, ports, and senders no source matches. Discovery: SAP and mDNS state and ' +
          'counters, without the lists of what they found (GET /api/discovery has them). Feeds: ' +
          'the WebSocket feeds, their clients and the messages skipped and sockets closed for ' +
          'clients too slow. Refusals: requests the guards refused, by kind.',
        response: { 200: StatsMessage, ...errors() },
      },
    },
    async () => stats(),
  );

  fastify.get(
    '/ws/stats',
    {
      ...webSocket((socket, request) =>
        feed(fastify.feeds.open(socket, 'stats', request), (send) => {
          send(stats);
          const timer = setInterval(() => send(stats), STATS_INTERVAL_MS);
          return () => clearInterval(timer);
        }),
      ),
      schema: {
        tags,
        operationId: 'watchStats',
        summary: 'Live audio engine statistics (WebSocket)',
        description:
          'Upgrade to a WebSocket. The daemon sends a StatsMessage (the GET /api/stats body) at ' +
          'once and then every second. Messages from the client are ignored. A message is ' +
          'skipped while the socket has not sent the previous one (or the kernel holds more ' +
          `than ${LOSSY_KERNEL_BOUND / 1024} KiB for it): a slow client gets the latest ` +
          'statistics, never a backlog. A ' +
          'plain GET answers 426 Upgrade Required.',
        response: {
          101: {
            ...StatsMessage,
            description: 'Switching protocols; every message is a StatsMessage.',
          },
          ...errors(426),
        },
      },
    },
    upgradeRequired,
  );
};

export default statsRoutes;
