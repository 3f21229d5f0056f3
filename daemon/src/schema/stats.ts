// The statistics the engine reports: GET /api/stats and every message of /ws/stats. What the
// engine reports itself is declared once, in Rust (native/engine/src/report.rs): its fields here
// are generated from those declarations (generated/engine-reports.ts, `npm run contract`), as
// are the binding's types (native/napi/index.d.ts); this file adds what the daemon knows.
import { type Static, Type } from '@sinclair/typebox';
import { StreamStats, WebrtcStreamStats } from '../streams/schema.js';
import { DiscoverySummary } from './discovery-status.js';
import { FeedsStats } from './feeds.js';
import {
  EngineStatsFields,
  PathStatsDescription,
  PathStatsFields,
  SinkStatsDescription,
  SinkStatsFields,
  SourceStatsDescription,
  SourceStatsFields,
  UnknownSenderDescription,
  UnknownSenderFields,
} from './generated/engine-reports.js';
import { PluginStats } from './plugins.js';
import { RefusalStats } from './refusals.js';

/** An instruction set the DSP kernels dispatch to; sse2 is the x86-64 baseline. */
const InstructionSet = Type.Union([
  Type.Literal('sse2'),
  Type.Literal('avx2'),
  Type.Literal('avx512'),
]);

const count = (description: string) => Type.Number({ minimum: 0, description });

export const SourceStats = Type.Object(SourceStatsFields, {
  title: 'SourceStats',
  description: SourceStatsDescription,
  additionalProperties: false,
});

export const SinkStats = Type.Object(SinkStatsFields, {
  title: 'SinkStats',
  description: SinkStatsDescription,
  additionalProperties: false,
});

export const PathStats = Type.Object(
  {
    ...PathStatsFields,
    route_config_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The route the solver chose this path through (the loudest when several lead from the ' +
        'source to the sink); null if the configuration changed since the engine applied it.',
    }),
  },
  { title: 'PathStats', additionalProperties: false, description: PathStatsDescription },
);

export const UnknownSender = Type.Object(UnknownSenderFields, {
  title: 'UnknownSender',
  description: UnknownSenderDescription,
  additionalProperties: false,
});

export const Culprit = Type.Object(
  {
    kind: Type.Union([Type.Literal('source'), Type.Literal('sink')]),
    config_id: Type.String(),
    name: Type.String(),
  },
  { additionalProperties: false },
);

export const Quarantined = Type.Object(
  { ...Culprit.properties, message: Type.String() },
  { additionalProperties: false },
);

export const EngineStatus = Type.Object(
  {
    state: Type.Union([Type.Literal('running'), Type.Literal('off'), Type.Literal('failed')], {
      description:
        'off: ENGINE=off; failed: it could not start, or one of its threads failed and it is ' +
        'restarting (within a second), or it failed too often and waits for the next ' +
        'configuration change; error says which and why.',
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the state is failed; null otherwise.',
    }),
    revision: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The configuration revision the engine plays (the last it applied; /api/config has the ' +
        'current one). Null before the first.',
    }),
    rejected: Type.Union(
      [
        Type.Object(
          { revision: Type.Integer(), reason: Type.String() },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'The last revision the engine refused, and why. Changes are checked with the engine ' +
          'before they are saved, so this stays null unless something is wrong.',
      },
    ),
    restarts: count('Times the engine rebuilt itself after one of its threads failed.'),
    last_fault: Type.Union(
      [
        Type.Object(
          {
            thread: Type.String({ description: 'trib-engine (audio) or trib-rx-PORT (receiver).' }),
            reason: Type.String({ description: 'The panic message and where it happened.' }),
            culprit: Type.Union([Culprit, Type.Null()], {
              description: 'The source or sink it was working on, if any.',
            }),
            ms_ago: Type.Number(),
            restart_ms: Type.Union([Type.Number(), Type.Null()], {
              description: 'From the fault to the engine playing again; null while restarting.',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The last fault of one of the engine threads; null if none.' },
    ),
    quarantined: Type.Array(Quarantined, {
      description:
        'Sources and sinks left out because the engine failed three times within 60 s while ' +
        'playing them; they play again when their settings change, or after 5 minutes.',
    }),
    // uptime_s, cpu_s, queue_overflows, unknown_packets, malformed_unknown (and more the engine
    // declares): the engine's own counters.
    ...EngineStatsFields,
    cpu_percent: Type.Number({
      description: 'CPU use of the engine over the last interval, % of one core.',
    }),
    simd: Type.Object(
      {
        best: InstructionSet,
        used: InstructionSet,
        problem: Type.Union([Type.String(), Type.Null()], {
          description:
            'Why TRIBUTARY_SIMD was not followed as given (an unknown name, more than the CPU ' +
            'has); null when it was, or is unset.',
        }),
      },
      {
        additionalProperties: false,
        description:
          "The instruction set the DSP kernels run with: the CPU's best, or less when the " +
          'TRIBUTARY_SIMD setting asks for less (to run as a lesser CPU would).',
      },
    ),
    problems: Type.Array(Type.String(), {
      description:
        'What the engine left out of the last configuration (a sink it cannot play, a source ' +
        'or sink in quarantine), one message each.',
    }),
    ports: Type.Object(
      {
        scream: Type.Array(Type.Integer()),
        tagged: Type.Union([Type.Integer(), Type.Null()]),
        rtp: Type.Array(Type.Integer()),
      },
      { additionalProperties: false, description: 'UDP ports the engine listens on.' },
    ),
  },
  { additionalProperties: false },
);

export const StatsMessage = Type.Object(
  {
    type: Type.Literal('stats'),
    engine: EngineStatus,
    sources: Type.Array(SourceStats),
    sinks: Type.Array(SinkStats),
    paths: Type.Array(PathStats, {
      description: 'Every path the engine plays, in the order of the sinks and their paths.',
    }),
    unknown_senders: Type.Array(UnknownSender, {
      description: 'Senders heard that no source matches, most recent first (add them as sources).',
    }),
    discovery: Type.Ref(DiscoverySummary),
    streams: Type.Array(Type.Union([StreamStats, WebrtcStreamStats]), {
      description:
        'Streams of sinks that had a listener: MP3 (GET /stream/{ip}/, format mp3) and WebRTC ' +
        '(WHEP, format webrtc).',
    }),
    feeds: FeedsStats,
    refusals: RefusalStats,
    plugins: PluginStats,
  },
  { title: 'StatsMessage', additionalProperties: false },
);
export type StatsMessage = Static<typeof StatsMessage>;
