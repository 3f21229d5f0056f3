import { eqResponse } from '@tributary/native';
import type { FastifyPluginAsync } from 'fastify';
import { invalidRequest } from '../../errors.js';
import { EQ_BAND_KEYS } from '../../schema/constants.js';
import { DEFAULT_POINTS, EqResponse, EqResponseRequest } from '../../schema/eq-response.js';
import { makeProblem } from '../../schema/validate.js';
import { errors } from '../shared.js';

/** 20 Hz to 20 kHz, log-spaced, `count` points. */
export function logFrequencies(count: number): number[] {
  return Array.from({ length: count }, (_, i) => 20 * 1000 ** (i / (count - 1)));
}

const DEFAULT_FREQUENCIES = logFrequencies(DEFAULT_POINTS);

/** POST /api/equalizer/response: what 18 band gains do, from the engine's own design. */
const eqResponseRoutes: FastifyPluginAsync = async (fastify) => {
  fastify.post<{ Body: EqResponseRequest }>(
    '/api/equalizer/response',
    {
      schema: {
        tags: ['Equalizers'],
        operationId: 'equalizerResponse',
        summary: 'The response curve of an equalizer',
        description:
          'The gain in dB at each frequency of 18 band gains (b1..b18, 0.0-2.0), computed by the ' +
          "engine's own filter design from the same coefficients it plays, at the given sample " +
          'rate. Changes nothing.',
        body: EqResponseRequest,
        response: { 200: EqResponse, ...errors(400) },
      },
    },
    async (request) => {
      const { bands, sample_rate: rate = 48000 } = request.body;
      const frequencies =
        request.body.frequencies ?? DEFAULT_FREQUENCIES.filter((f) => f <= rate / 2);
      const too = frequencies.findIndex((f) => f > rate / 2);
      if (too >= 0) {
        throw invalidRequest([
          makeProblem(
            `frequencies.${too}`,
            'maximum',
            `must be <= ${rate / 2} (half of sample_rate ${rate})`,
            frequencies[too],
          ),
        ]);
      }
      const gains = EQ_BAND_KEYS.map((k) => bands[k]);
      return { sample_rate: rate, frequencies, db: eqResponse(gains, rate, frequencies) };
    },
  );
};

export default eqResponseRoutes;
