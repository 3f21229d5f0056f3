import type { FastifyPluginAsync } from 'fastify';
import {
  LEVELS_PER_SECOND,
  LevelsMessage,
  LevelsQuery,
  type SinkLevels,
} from '../../schema/levels.js';
import { errors, feed, upgradeRequired, webSocket } from '../shared.js';

const tags = ['System'];

const round = (digits: number) => {
  const scale = 10 ** digits;
  return (x: number) => Math.round(x * scale) / scale;
};
const fine = round(5);
const tenth = round(1);

/** GET /api/levels and /ws/levels: what each sink sends, for meters and the visualizer. */
const levelRoutes: FastifyPluginAsync = async (fastify) => {
  const engine = fastify.engine;
  const levels = (query: LevelsQuery): LevelsMessage => ({
    type: 'levels',
    sinks: engine.levels(query.sink ? query.sink.split(',') : []).map((l): SinkLevels => {
      const meter = {
        config_id: l.config_id,
        name: l.name,
        channels: l.channels,
        sample_rate: l.sample_rate,
        windows: l.windows,
        peak: l.peak.map(fine),
        rms: l.rms.map(fine),
      };
      if (query.detail === 'meter') return meter;
      return {
        ...meter,
        spectrum: l.spectrum.map(tenth),
        wave_min: l.wave_min.map(round(4)),
        wave_max: l.wave_max.map(round(4)),
      };
    }),
  });
  const querystring = LevelsQuery;

  fastify.get<{ Querystring: LevelsQuery }>(
    '/api/levels',
    {
      schema: {
        tags,
        operationId: 'getLevels',
        summary: "The sinks' levels, spectrum and waveform",
        description:
          'Peak and RMS per channel, a 64-band spectrum and a waveform of what each sink sends, ' +
          'measured by the engine. A sink is measured only for two seconds after its levels are ' +
          'read, so a first reading is zeros; /ws/levels is the way to watch them.',
        querystring,
        response: { 200: LevelsMessage, ...errors(400) },
      },
    },
    async (request) => levels(request.query),
  );

  fastify.get<{ Querystring: LevelsQuery }>(
    '/ws/levels',
    {
      ...webSocket((socket, request) => {
        const query = request.query as LevelsQuery;
        feed(socket, (send) => {
          send(levels(query));
          const timer = setInterval(() => send(levels(query)), 1000 / LEVELS_PER_SECOND);
          return () => clearInterval(timer);
        });
      }),
      schema: {
        tags,
        operationId: 'watchLevels',
        summary: 'Live levels of the sinks (WebSocket, 30 messages a second)',
        description:
          'Upgrade to a WebSocket. The daemon sends a LevelsMessage (the GET /api/levels body) ' +
          `${LEVELS_PER_SECOND} times a second for as long as the socket is open; the engine ` +
          'measures only the sinks someone watches. `detail=meter` leaves out the spectrum and ' +
          'waveform (for level meters). A plain GET answers 426 Upgrade Required.',
        querystring,
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
