//! Every range and default the engine enforces, written once. The napi binding hands them to
//! the daemon (`engineLimits()`), which checks its environment settings and documents its
//! defaults with these values instead of copies.

use tributary_dsp::resampler::{MAX_RATE, MIN_RATE};

/// Longest delay a path can have: the timeshift buffer's length (`TIMESHIFT_DURATION`).
pub const TIMESHIFT_DURATION_S: f64 = 300.0;
/// The same, in the unit paths give it.
pub const MAX_DELAY_MS: f64 = TIMESHIFT_DURATION_S * 1000.0;
/// Bands of the equalizer.
pub const EQ_BANDS: usize = tributary_dsp::eq::BANDS;
/// A band's linear gain: 0.0 (-40 dB, the floor) to 2.0 (+6 dB); 1.0 is flat.
pub const EQ_GAIN_MAX: f32 = 2.0;
/// A path's linear volume: 0.0 to 1.0.
pub const VOLUME_MAX: f32 = 1.0;
/// Sample rates the engine plays (sinks and RTP sources).
pub const SAMPLE_RATE_MIN: u32 = MIN_RATE;
pub const SAMPLE_RATE_MAX: u32 = MAX_RATE;
/// Channels of a stream.
pub const CHANNELS_MAX: u8 = tributary_dsp::MAX_CHANNELS as u8;
/// The jitter buffer's bounds: its fixed size, adaptive floor and ceiling are 20-200 ms.
pub const JITTER_MIN_MS: f64 = 20.0;
pub const JITTER_MAX_MS: f64 = 200.0;
/// Default jitter buffer: adaptive from the lowest floor (low latency) up to the highest ceiling.
pub const DEFAULT_JITTER_FLOOR_MS: f64 = JITTER_MIN_MS;
pub const DEFAULT_JITTER_CEILING_MS: f64 = JITTER_MAX_MS;
/// Ports the receivers listen on unless told otherwise: Scream's two usual ports, the tagged
/// (per-application) Scream port, and RTP (RTCP on each port + 1).
pub const DEFAULT_SCREAM_PORTS: [u16; 2] = [4010, 16401];
pub const DEFAULT_TAGGED_PORT: u16 = 16402;
pub const DEFAULT_RTP_PORTS: [u16; 1] = [40000];
/// Port a sink is sent to when it names none (where Scream receivers listen).
pub const DEFAULT_SINK_PORT: u16 = 4010;
/// TTL of multicast packets sent: default and range.
pub const DEFAULT_MULTICAST_TTL: u32 = 64;
pub const MULTICAST_TTL_MAX: u32 = 255;
/// Highest RTP payload type (7 bits).
pub const PAYLOAD_TYPE_MAX: u8 = 127;
/// Bit depths a sink can be sent (RTP carries 16 and 24 only, see `SinkSpec::sample_format`).
pub const SINK_BIT_DEPTHS: [u8; 3] = [16, 24, 32];
