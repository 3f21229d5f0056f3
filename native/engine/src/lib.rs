//! Tributary's audio engine: the data plane between the network and the DSP core. JavaScript
//! is never on the per-packet path: the napi binding only starts, configures, reads stats and
//! stops.
//!
//! By stage, in the order a packet travels:
//!
//! - [`wire`]: the formats on the network (Scream, tagged Scream, RTP, RTCP, SDP);
//! - [`source`]: per source, its buffer (jitter and timeshift), clock drift, counters, and
//!   the senders no source matches;
//! - [`graph`]: taps (a source read at a delay and a sink rate, shared) and paths (a source on
//!   a sink: matrix, EQ, volume);
//! - [`sink`]: per sink, the clock, the mix and the transport that sends it;
//! - [`runtime`]: the threads, sockets, supervision, plans and statistics.
//!
//! What the engine is told: [`options`] (at start) and [`desired`] (on every change), within
//! the bounds of [`limits`].

pub mod desired;
pub mod graph;
pub mod limits;
pub mod log;
pub mod options;
pub mod runtime;
pub mod sink;
pub mod source;
pub mod wire;
pub mod work;

pub use desired::{ConfigError, DesiredState, PathSpec, RtpSourceSpec, SinkProtocol, SinkSpec};
pub use options::{EngineOptions, JitterConfig};
pub use runtime::engine::Engine;
pub use runtime::fault::Culprit;
#[cfg(feature = "fault-injection")]
pub use runtime::fault_injection::FaultInjection;
pub use runtime::health::{EngineHealth, FaultReport, HealthState, QuarantineReport};
pub use runtime::levels::Levels;
pub use runtime::stats::{BoundPorts, EngineStats, PathStats, SinkStats, SourceStats};
pub use sink::listen::mp3::{Deliver, Mp3Stream, Mp3StreamStats};
pub use sink::listen::socket::tcp_send_queue;
pub use sink::listen::whep::session::Patched as WhepPatched;
pub use sink::listen::whep::session::SessionStats as WhepSessionStats;
pub use sink::listen::whep::{
    WhepAnswer, WhepBind, WhepError, WhepPatchError, WhepRequest, WhepServer, WhepSessionInfo,
};
pub use source::unknown::UnknownSender;
