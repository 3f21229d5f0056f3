import type { FastifyPluginAsync } from 'fastify';
import { LOSSY_KERNEL_BOUND } from '../../schema/feeds.js';
import {
  LEVELS_PER_SECOND,
  LevelsMessage,
  LevelsQuery,
  LevelsSocketQuery,
} from '../../schema/levels.js';
import { errors, feed, upgradeRequired, webSocket } from '../shared.js';
import { LevelSubscriptions, levelsFor, levelsFrameFor } from './subscriptions.js';

const tags = ['System'];

/** GET /api/levels and /ws/levels: what each sink sends (and each source asked for), for meters
 * and the visualizer. */
const levelRoutes: FastifyPluginAsync = async (fastify) => {
  const engine = fastify.engine;

  fastify.get<{ Querystring: LevelsQuery }>(
    '/api/levels',
    {
      schema: {
        tags,
        operationId: 'getLevels',
        summary: "The sinks' and sources' levels, spectrum and waveform",
        description:
          'Peak and RMS per channel, a 64-band spectrum and a waveform of what each sink sends ' +
          '(and, with `source=`, of what a source sends into the routing graph), measured by ' +
          'the engine. A sink or source is measured only for two seconds after its levels are ' +
          'read, so a first reading is zeros; /ws/levels is the way to watch them.',
        querystring: LevelsQuery,
        response: { 200: LevelsMessage, ...errors(400) },
      },
    },
    async (request) => levelsFor(engine, [request.query]),
  );

  fastify.get<{ Querystring: LevelsSocketQuery }>(
    '/ws/levels',
    {
      ...webSocket((socket, request) => {
        const { mode, encoding, ...query } = request.query as LevelsSocketQuery;
        const subscriptions = new LevelSubscriptions(mode === 'subscribe' ? undefined : query);
        const message = encoding === 'binary' ? levelsFrameFor : levelsFor;
        feed(fastify.feeds.open(socket, 'levels', request), (send) => {
          const tick = () => {
            if (subscriptions.size > 0) send(() => message(engine, subscriptions.values()));
          };
          socket.on('message', (data, binary) => {
            const refusal = subscriptions.handle(binary ? '' : String(data));
            if (refusal) send(refusal);
          });
          tick();
          const timer = setInterval(tick, 1000 / LEVELS_PER_SECOND);
          return () => clearInterval(timer);
        });
      }),
      schema: {
        tags,
        operationId: 'watchLevels',
        summary: 'Live levels of the sinks and sources (WebSocket, 30 messages a second)',
        description:
          'Upgrade to a WebSocket. The daemon sends a LevelsMessage (the GET /api/levels body) ' +
          `${LEVELS_PER_SECOND} times a second for as long as the socket is open; the engine ` +
          'measures only the sinks and sources someone watches. `detail=meter` leaves out the ' +
          'spectrum and waveform (for level meters). One socket carries several subscriptions: ' +
          'the client sends `{"type":"subscribe","id":"meters","detail":"meter"}` (a ' +
          'LevelsSubscribe: an id of its choosing and the fields of the query) to add or change ' +
          'one and `{"type":"unsubscribe","id":"meters"}` to end it, and every message reports ' +
          'the union of them. With `encoding=binary` each LevelsMessage comes as one binary ' +
          'frame instead (float32 values; the dashboard decodes it). The URL query is the ' +
          'first subscription (id `url`); with ' +
          '`mode=subscribe` the socket starts with none and sends nothing until one is made. A ' +
          'message the daemon cannot act on is answered with a LevelsRefusal (`type: "error"`, ' +
          'the field and the rule) and changes nothing. A message is skipped while the socket ' +
          'has not sent the previous one (or the kernel holds more than ' +
          `${LOSSY_KERNEL_BOUND / 1024} KiB for it): a slow ` +
          'client gets the latest levels, never a backlog. A plain GET answers 426 Upgrade ' +
          'Required.',
        querystring: LevelsSocketQuery,
        response: {
          101: {
            ...LevelsMessage,
            description: 'Switching protocols; every message is a LevelsMessage.',
          },
          ...errors(400, 426),
        },
      },
    },
    upgradeRequired,
  );
};

export default levelRoutes;
