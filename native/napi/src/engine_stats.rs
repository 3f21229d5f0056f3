//! What the engine reports, as JavaScript sees it: the ports it listens on. Its statistics and
//! unknown senders are generated from the engine's report declarations
//! (`engine_reports.rs`, `npm run contract`), with the daemon's `/api/stats` schema fields.

use napi::bindgen_prelude::{Either, Null};
use napi_derive::napi;
use tributary_engine::BoundPorts;

/// The ports the engine listens on.
#[napi(object)]
pub struct EnginePorts {
    pub scream: Vec<u32>,
    /// The tagged Scream port; null when it is off.
    pub tagged: Either<u32, Null>,
    pub rtp: Vec<u32>,
}

pub(crate) fn ports(p: &BoundPorts) -> EnginePorts {
    EnginePorts {
        scream: p.scream.iter().map(|&x| u32::from(x)).collect(),
        tagged: p
            .tagged
            .map_or(Either::B(Null), |t| Either::A(u32::from(t))),
        rtp: p.rtp.iter().map(|&x| u32::from(x)).collect(),
    }
}
