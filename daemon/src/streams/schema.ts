import { type Static, Type } from '@sinclair/typebox';

/** One sink's MP3 stream in GET /api/stats (present once it had a listener). */
export const StreamStats = Type.Object(
  {
    sink: Type.String({ description: 'Name of the sink streamed.' }),
    config_id: Type.String({ description: "The sink's config_id." }),
    ip: Type.String({ description: 'The address in the stream URL (/stream/{ip}/).' }),
    format: Type.Literal('mp3'),
    bitrate_kbps: Type.Integer({ description: 'Constant bit rate of the stream.' }),
    listeners: Type.Integer({ description: 'Listeners connected now.' }),
    dropped_listeners: Type.Integer({
      description:
        'Listeners dropped because they fell 10 s behind (a slow or stalled connection).',
    }),
    bytes_sent: Type.Number({ description: 'Bytes written to all listeners.' }),
    encoder_cpu_percent: Type.Union([Type.Number(), Type.Null()], {
      description: 'CPU of the encoder thread, percent of one core; null while no one listens.',
    }),
    encoder_overruns: Type.Integer({
      description: 'Renders of the sink the encoder missed because it fell behind.',
    }),
    encoder_filled_s: Type.Number({
      description: 'Seconds of silence encoded while the sink did not render (engine restarting).',
    }),
    sample_rate: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Sample rate of the MP3 frames (the sink rate, or 48/44.1 kHz above 48 kHz).',
    }),
  },
  { title: 'StreamStats', additionalProperties: false },
);
export type StreamStats = Static<typeof StreamStats>;
