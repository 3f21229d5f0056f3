//! Tributary's audio engine: the data plane between the network and the DSP core.
//!
//! Pure, allocation-free parsers and builders for the wire formats ([`scream`], [`tagged`],
//! [`rtp`], [`rtcp`], [`sdp`]); per-source buffering ([`jitter`], [`drift`], [`timeline`]);
//! readers shared by every path of a source, sink rate and delay ([`tap`]); per-path
//! processing ([`path`]) and per-sink mixing and sending ([`sink`]); and the runtime with its own threads and sockets ([`engine`]). JavaScript is never on the
//! per-packet path: the napi binding only starts, configures, reads stats and stops.

pub mod config;
pub mod drift;
pub mod engine;
mod engine_thread;
pub mod fault;
#[cfg(feature = "fault-injection")]
mod fault_injection;
pub mod health;
mod ingest;
pub mod jitter;
pub mod log;
pub mod net;
pub mod packet;
pub mod path;
pub mod pcm;
pub mod reader;
pub mod rt;
pub mod rtcp;
pub mod rtp;
pub mod scream;
pub mod sdp;
pub mod sink;
pub mod source;
pub mod stats;
pub mod supervisor;
pub mod tagged;
pub mod tap;
pub mod timeline;

pub use config::{DesiredState, EngineOptions, PathSpec, RtpSourceSpec, SinkProtocol, SinkSpec};
pub use engine::{BoundPorts, EngineStats, SinkStats, SourceStats, UnknownSender};
#[cfg(feature = "fault-injection")]
pub use fault_injection::FaultInjection;
pub use health::{EngineHealth, FaultReport, HealthState, QuarantineReport};
pub use supervisor::Engine;
