// POST /api/equalizer/response: the response curve of 18 band gains, computed by the engine's own
// filter design (the napi `eqResponse`), so a drawn curve is what the engine plays.
import { type Static, Type } from '@sinclair/typebox';
import { EqualizerBands } from './common.js';
import { SAMPLE_RATES } from './constants.js';

/** Points of the curve when the request names no frequencies. */
export const DEFAULT_POINTS = 121;
export const MAX_POINTS = 2048;

export const EqResponseRequest = Type.Object(
  {
    bands: EqualizerBands,
    sample_rate: Type.Optional(
      Type.Union(
        SAMPLE_RATES.map((r) => Type.Literal(r)),
        {
          default: 48000,
          description: 'The rate the equalizer runs at (a sink plays at its own rate).',
        },
      ),
    ),
    frequencies: Type.Optional(
      Type.Array(Type.Number({ minimum: 0 }), {
        minItems: 1,
        maxItems: MAX_POINTS,
        description:
          `Frequencies (Hz, at most half the sample rate) to evaluate; by default ${DEFAULT_POINTS} ` +
          'log-spaced points from 20 Hz to 20 kHz.',
      }),
    ),
  },
  { title: 'EqResponseRequest', additionalProperties: false },
);
export type EqResponseRequest = Static<typeof EqResponseRequest>;

export const EqResponse = Type.Object(
  {
    sample_rate: Type.Integer(),
    frequencies: Type.Array(Type.Number(), { description: 'Hz, as asked or the default points.' }),
    db: Type.Array(Type.Number(), {
      description: "The equalizer's gain at each frequency, dB (0 is unchanged).",
    }),
  },
  { title: 'EqResponse', additionalProperties: false },
);
export type EqResponse = Static<typeof EqResponse>;
