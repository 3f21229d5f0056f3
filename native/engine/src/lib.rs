//! Tributary's audio engine: the data plane between the network and the DSP core.
//!
//! Pure, allocation-free parsers and builders for the wire formats ([`scream`], [`tagged`],
//! [`rtp`], [`rtcp`], [`sdp`]); per-source buffering ([`jitter`], [`drift`], [`timeshift`]);
//! and the runtime with its own threads and sockets ([`engine`]). JavaScript is never on the
//! per-packet path: the napi binding only starts, configures, reads stats and stops.

pub mod drift;
pub mod jitter;
pub mod packet;
pub mod pcm;
pub mod reader;
pub mod rtcp;
pub mod rtp;
pub mod scream;
pub mod sdp;
pub mod tagged;
pub mod timeline;
