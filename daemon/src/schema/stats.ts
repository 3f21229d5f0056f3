// The statistics the engine reports: GET /api/stats and every message of /ws/stats. What the
// engine reports itself has the types of its own objects (native/napi/index.d.ts): a test
// (test/engine/contract.test.ts) fails when they drift apart.
import { type Static, Type } from '@sinclair/typebox';
import { StreamStats, WebrtcStreamStats } from '../streams/schema.js';
import { DiscoverySummary } from './discovery-status.js';
import { FeedsStats } from './feeds.js';
import { RefusalStats } from './refusals.js';

/** An instruction set the DSP kernels dispatch to; sse2 is the x86-64 baseline. */
const InstructionSet = Type.Union([
  Type.Literal('sse2'),
  Type.Literal('avx2'),
  Type.Literal('avx512'),
]);

const count = (description: string) => Type.Number({ minimum: 0, description });

const ms = (description: string) => Type.Number({ minimum: 0, description });

/** What a source's readers did that a listener could hear. */
const GlitchStats = {
  correction_ppm: Type.Number({
    description:
      'Rate adjustment the readers apply now: the drift they correct for (drift_ppm, counted ' +
      'at the weight its precision earns) plus a correction of the buffer level of at most ' +
      '+-50 ppm, ppm; it moves towards that sum by at most 20 ppm per second.',
  }),
  underruns: count('Times a reader ran dry while the source was sending.'),
  silence_ms: ms('Silence played because of those, ms.'),
  concealed: count('Gaps concealed because packets were lost or came too late.'),
  concealed_ms: ms('Audio replaced by concealment, ms.'),
  skips: count('Skips ahead over queued audio (a sender catching up after a stall).'),
  skipped_ms: ms('Audio skipped, ms.'),
  repeats: count('Steps back that played audio again (far too little queued).'),
  repeated_ms: ms('Audio played twice, ms.'),
};

export const SourceStats = Type.Object(
  {
    config_id: Type.String({ description: 'The source this stream was matched to.' }),
    name: Type.String(),
    packets: count('Packets received.'),
    bytes: count('Payload bytes received.'),
    lost: count('Packets never received (RFC 3550: a late arrival counts as received).'),
    late: count('Packets that arrived after their audio had played.'),
    reordered: count('Packets that arrived out of order (put back in place).'),
    duplicates: count('Packets received twice.'),
    malformed: count('Malformed, truncated or oversized packets dropped.'),
    rtcp_packets: count('RTCP sender/receiver reports received.'),
    jitter_ms: Type.Number({ description: 'Interarrival jitter (RFC 3550), ms.' }),
    buffer_ms: Type.Number({ description: 'Audio queued ahead of playback, ms.' }),
    drift_ppm: Type.Number({
      description: "Sender clock error against the router's clock, ppm (positive: fast).",
    }),
    ...GlitchStats,
    format_problem: Type.Union([Type.String(), Type.Null()], {
      description:
        "What arrives disagrees with the source's settings (a static RTP payload type of another " +
        'format, which then plays as the payload type says); null when it agrees.',
    }),
    format: Type.Union([Type.String(), Type.Null()], {
      description: 'Detected stream format, e.g. "rtp L16 48000 Hz 2 ch"; null before any packet.',
      examples: ['scream s16le 48000 Hz 2 ch'],
    }),
  },
  { title: 'SourceStats', additionalProperties: false },
);

export const SinkStats = Type.Object(
  {
    config_id: Type.String(),
    name: Type.String(),
    packets: count('Packets sent.'),
    bytes: count('Bytes sent.'),
    underruns: count('Times a playing path ran out of buffered audio (concealed with a fade).'),
    silence_ms: ms('Silence its paths played because a source ran dry, ms.'),
    concealed: count('Gaps its paths concealed (lost or late packets).'),
    concealed_ms: ms('Audio its paths replaced by concealment, ms.'),
    send_errors: count('Packets the network refused (or TCP chunks dropped).'),
    queue_bytes: count('Bytes rendered but not yet sent.'),
    max_late_ms: Type.Number({
      description: 'Largest lateness of a packet against its deadline since the last report, ms.',
    }),
  },
  { title: 'SinkStats', additionalProperties: false },
);

export const PathStats = Type.Object(
  {
    source_config_id: Type.String({ description: 'The source of this path.' }),
    sink_config_id: Type.String({ description: 'The sink it plays on.' }),
    route_config_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The route the solver chose this path through (the loudest when several lead from the ' +
        'source to the sink); null if the configuration changed since the engine applied it.',
    }),
    underruns: count('Times the path ran out of buffered audio while its source was sending.'),
    silence_ms: ms('Silence it played because of those, ms.'),
    concealed: count('Gaps it concealed because packets were lost or came too late.'),
    concealed_ms: ms('Audio it replaced by concealment, ms.'),
  },
  {
    title: 'PathStats',
    additionalProperties: false,
    description:
      'One source playing on one sink: the part of the sink’s underruns, silence and ' +
      'concealment that came through it (a sink’s counters are the sums over its paths). ' +
      'Kept while the path exists, across configuration changes.',
  },
);

export const UnknownSender = Type.Object(
  {
    kind: Type.Union([Type.Literal('scream'), Type.Literal('scream-tagged'), Type.Literal('rtp')]),
    address: Type.String({ description: 'Sender IP address.', examples: ['192.168.1.30'] }),
    port: Type.Integer({ description: 'Local port it arrived on.', examples: [4010] }),
    tag: Type.Union([Type.String(), Type.Null()], {
      description:
        'Per-application tag (ip/program) for tagged Scream; a source with this tag plays it.',
    }),
    packets: count('Packets heard.'),
    format: Type.Union([Type.String(), Type.Null()]),
    last_seen_ms_ago: Type.Number(),
  },
  { title: 'UnknownSender', additionalProperties: false },
);

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
    uptime_s: Type.Number(),
    cpu_s: Type.Number({ description: "CPU time of the engine's threads since start, s." }),
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
    queue_overflows: count('Datagrams dropped because the engine fell behind.'),
    unknown_packets: count('Packets from senders no source matches.'),
    malformed_unknown: count('Malformed packets from unknown senders.'),
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
  },
  { title: 'StatsMessage', additionalProperties: false },
);
export type StatsMessage = Static<typeof StatsMessage>;
