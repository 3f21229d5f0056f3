import type { EngineLevels } from '@tributary/native';
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

/** What a message carries of one sink's or source's levels (`detail=meter`: no spectrum). */
function shown(l: EngineLevels, detail: LevelsQuery['detail']): SinkLevels {
  const meter = {
    config_id: l.config_id,
    name: l.name,
    channels: l.channels,
    sample_rate: l.sample_rate,
    windows: l.windows,
    peak: l.peak.map(fine),
    rms: l.rms.map(fine),
  };
  if (detail === 'meter') return meter;
  return {
    ...meter,
    spectrum: l.spectrum.map(tenth),
    wave_min: l.wave_min.map(round(4)),
    wave_max: l.wave_max.map(round(4)),
  };
}

/** GET /api/levels and /ws/levels: what each sink sends (and each source asked for), for meters
 * and the visualizer. */
const levelRoutes: FastifyPluginAsync = async (fastify) => {
  const engine = fastify.engine;
  const ids = (list: string | undefined) => (list ? list.split(',') : []);
  const levels = ({ sink, source, detail }: LevelsQuery): LevelsMessage => ({
    type: 'levels',
    // Every sink when nothing is named; only the named ones otherwise.
    sinks: sink || !source ? engine.levels(ids(sink)).map((l) => shown(l, detail)) : [],
    sources: source ? engine.sourceLevels(ids(source)).map((l) => shown(l, detail)) : [],
  });
  const querystring = LevelsQuery;

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
        summary: 'Live levels of the sinks and sources (WebSocket, 30 messages a second)',
        description:
          'Upgrade to a WebSocket. The daemon sends a LevelsMessage (the GET /api/levels body) ' +
          `${LEVELS_PER_SECOND} times a second for as long as the socket is open; the engine ` +
          'measures only the sinks and sources someone watches. `detail=meter` leaves out the ' +
          'spectrum and waveform (for level meters). A plain GET answers 426 Upgrade Required.',
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
