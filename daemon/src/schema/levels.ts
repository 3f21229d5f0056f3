// The sinks' and sources' levels for meters and the visualizer: GET /api/levels and every
// message of /ws/levels. The engine measures them from what each sink sends and what each source
// sends into the graph, only while someone reads.
import { type Static, Type } from '@sinclair/typebox';
import { named } from './common.js';
import { Problem } from './problem.js';

/** Log-spaced spectrum bands the engine reports, 20 Hz to 20 kHz. */
export const SPECTRUM_BANDS = 64;
/** Points of the decimated waveform. */
export const WAVE_POINTS = 256;
/** Messages per second on /ws/levels. */
export const LEVELS_PER_SECOND = 30;

export const LevelsQuery = Type.Object(
  {
    sink: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description:
          'config_id of the sink to report, or several separated by commas; every sink the ' +
          'engine plays when neither `sink` nor `source` is given.',
      }),
    ),
    source: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description:
          'config_id of the source to report (the dashboard asks for its active source), or ' +
          'several separated by commas; no source when absent. A source is measured as it ' +
          'enters the routing graph, before any volume and EQ (its own included), and only while an ' +
          'enabled route plays it (others are not reported).',
      }),
    ),
    detail: Type.Optional(
      Type.Union([Type.Literal('meter'), Type.Literal('full')], {
        default: 'full',
        description:
          '`meter`: peak and RMS only (for level meters); `full`: also the spectrum and waveform.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LevelsQuery = Static<typeof LevelsQuery>;

/** The most subscriptions one /ws/levels socket may hold. */
export const MAX_LEVEL_SUBSCRIPTIONS = 32;

export const LevelsSocketQuery = Type.Object(
  {
    ...LevelsQuery.properties,
    mode: Type.Optional(
      Type.Literal('subscribe', {
        description:
          '`subscribe`: the socket starts with no subscription and reports what `subscribe` ' +
          'messages ask for. Without it, `sink`, `source` and `detail` are the first ' +
          'subscription (id `url`).',
      }),
    ),
    encoding: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('binary')], {
        default: 'json',
        description:
          '`binary`: every LevelsMessage is one binary frame, its values the engine’s float32 ' +
          '(a JSON header without the arrays, then the arrays; the layout is in ' +
          'daemon/src/schema/levels-frame.ts), about half the bytes of the JSON text. What ' +
          'the dashboard asks for. Refusals stay JSON text.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LevelsSocketQuery = Static<typeof LevelsSocketQuery>;

const subscriptionId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The client’s name for the subscription (`url` is the one the URL made).',
});

/** Client to daemon on /ws/levels: watch (or change) one subscription. */
export const LevelsSubscribe = Type.Object(
  {
    type: Type.Literal('subscribe'),
    id: subscriptionId,
    ...LevelsQuery.properties,
  },
  named('LevelsSubscribe', {
    description:
      'Adds a subscription to a /ws/levels socket, or replaces the one with the same id. The ' +
      'fields are those of the GET /api/levels query. Every message then reports the union of ' +
      'the socket’s subscriptions: a sink or source asked for by several appears once, with the ' +
      `most detail any of them asked for. At most ${MAX_LEVEL_SUBSCRIPTIONS} per socket.`,
  }),
);
export type LevelsSubscribe = Static<typeof LevelsSubscribe>;

/** Client to daemon on /ws/levels: stop one subscription. */
export const LevelsUnsubscribe = Type.Object(
  { type: Type.Literal('unsubscribe'), id: subscriptionId },
  named('LevelsUnsubscribe', {
    description:
      'Ends a subscription; with none left the daemon sends nothing until the next subscribe.',
  }),
);
export type LevelsUnsubscribe = Static<typeof LevelsUnsubscribe>;

/** What a client sends on /ws/levels. */
export type LevelsClientMessage = LevelsSubscribe | LevelsUnsubscribe;

const perChannel = (description: string) =>
  Type.Array(Type.Number({ minimum: 0 }), {
    maxItems: 8,
    description: `${description} per channel, linear (1.0 is full scale), over the latest ~33 ms.`,
  });

const levelFields = {
  config_id: Type.String(),
  name: Type.String(),
  channels: Type.Integer({ minimum: 0, description: '0 before the first measurement.' }),
  sample_rate: Type.Integer({ minimum: 0 }),
  windows: Type.Number({
    minimum: 0,
    description:
      'Windows (~33 ms) measured so far; the same in two messages means nothing new. A sink or source is ' +
      'measured only while someone reads its levels, so the first reading is zeros.',
  }),
  peak: perChannel('Peak'),
  rms: perChannel('RMS'),
  spectrum: Type.Optional(
    Type.Array(Type.Number(), {
      maxItems: SPECTRUM_BANDS,
      description: `${SPECTRUM_BANDS} band levels in dBFS (floor -120), log-spaced from 20 Hz to 20 kHz (or half the sample rate); absent with detail=meter.`,
    }),
  ),
  wave_min: Type.Optional(
    Type.Array(Type.Number(), {
      maxItems: WAVE_POINTS,
      description: `The channels' average over the latest 2048 samples, in ${WAVE_POINTS} stretches: the lowest sample of each (with wave_max, an envelope that loses nothing to decimation); absent with detail=meter.`,
    }),
  ),
  wave_max: Type.Optional(
    Type.Array(Type.Number(), {
      maxItems: WAVE_POINTS,
      description: 'The highest sample of each stretch; absent with detail=meter.',
    }),
  ),
};

export const SinkLevels = Type.Object(levelFields, {
  title: 'SinkLevels',
  additionalProperties: false,
});
export type SinkLevels = Static<typeof SinkLevels>;

export const SourceLevels = Type.Object(levelFields, {
  title: 'SourceLevels',
  description:
    'A source’s levels as it enters the routing graph (before any volume and EQ, its own included).',
  additionalProperties: false,
});
export type SourceLevels = Static<typeof SourceLevels>;

export const LevelsMessage = Type.Object(
  {
    type: Type.Literal('levels'),
    sinks: Type.Array(SinkLevels, {
      description: 'The sinks asked for that the engine plays (none when the engine is off).',
    }),
    sources: Type.Array(SourceLevels, {
      description:
        'The sources asked for (`source=`) that an enabled route plays; empty when none was asked.',
    }),
  },
  { title: 'LevelsMessage', additionalProperties: false },
);
export type LevelsMessage = Static<typeof LevelsMessage>;

/** Daemon to client on /ws/levels: a message it could not act on (the socket stays open). */
export const LevelsRefusal = Type.Object(
  {
    type: Type.Literal('error'),
    message: Type.String({ description: 'What was wrong, in one sentence.' }),
    details: Type.Array(Type.Ref(Problem), { description: 'Every problem found in the message.' }),
  },
  named('LevelsRefusal', {
    description: 'The answer to a /ws/levels message the daemon could not act on.',
  }),
);
export type LevelsRefusal = Static<typeof LevelsRefusal>;
