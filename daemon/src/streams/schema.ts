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

/** One WebRTC listener, in WebrtcStreamStats and GET /api/whep/stats/{session_id}. */
export const WhepSessionStats = Type.Object(
  {
    session_id: Type.String(),
    sink: Type.String({ description: 'Name of the sink listened to.' }),
    config_id: Type.String({ description: "The sink's config_id." }),
    profile: Type.String({ description: 'Opus profile (low_latency, balanced, high_quality).' }),
    connected: Type.Boolean({ description: 'ICE and DTLS are up.' }),
    listener: Type.Union([Type.String(), Type.Null()], {
      description: "The listener's address:port (ICE's selected pair); null before it connects.",
    }),
    packets: Type.Number({ description: 'RTP packets sent.' }),
    bytes: Type.Number({ description: 'RTP payload bytes sent.' }),
    packets_lost: Type.Number({ description: 'Packets the listener reported lost (RTCP RR).' }),
    loss: Type.Number({ description: 'Fraction lost in the latest receiver report (0-1).' }),
    jitter_ms: Type.Number({ description: 'Interarrival jitter the listener reported.' }),
    rtt_ms: Type.Union([Type.Number(), Type.Null()], {
      description: 'Round-trip time from RTCP; null before the first receiver report.',
    }),
    duration_s: Type.Number({ description: 'Seconds since the offer.' }),
    dropped_packets: Type.Number({
      description: 'Packets not sent to this listener (before it connected).',
    }),
    ice_restarts: Type.Number({
      description: 'ICE restarts the listener made (a PATCH with new ice-ufrag/ice-pwd).',
    }),
  },
  { title: 'WhepSessionStats', additionalProperties: false },
);
export type WhepSessionStats = Static<typeof WhepSessionStats>;

/** One sink's WebRTC listening in GET /api/stats (present once it had a listener). */
export const WebrtcStreamStats = Type.Object(
  {
    sink: Type.String({ description: 'Name of the sink listened to.' }),
    config_id: Type.String({ description: "The sink's config_id." }),
    format: Type.Literal('webrtc'),
    profile: Type.String({ description: 'The Opus profile of the sink (webrtc.profile).' }),
    bitrate_kbps: Type.Integer({ description: 'Opus bit rate of that profile.' }),
    listeners: Type.Integer({ description: 'WebRTC sessions open now.' }),
    bytes_sent: Type.Number({ description: 'RTP payload bytes sent to the sessions open now.' }),
    packets_sent: Type.Number({ description: 'RTP packets sent to the sessions open now.' }),
    dropped_packets: Type.Number({
      description: 'Packets the sessions open now did not send (not connected yet).',
    }),
    sessions_closed: Type.Integer({
      description:
        'Sessions ended since the daemon started: closed (DELETE, replaced) or timed out.',
    }),
    sessions: Type.Array(WhepSessionStats),
  },
  { title: 'WebrtcStreamStats', additionalProperties: false },
);
export type WebrtcStreamStats = Static<typeof WebrtcStreamStats>;
