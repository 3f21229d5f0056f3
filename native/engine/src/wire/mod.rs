//! Wire formats: pure, allocation-free parsers and builders for what travels on the network.
//! Every parser returns a [`packet::DropReason`] instead of panicking.
//!
//! - [`scream`]: Scream (5-byte header + PCM), as sent by the Scream Windows driver and ESP32s;
//! - [`tagged`]: Tributary's per-application Scream (`TRBT` header, then Scream);
//! - [`rtp`]: RTP with L16/L24 payloads; [`rtcp`]: sender and receiver reports.
//!
//! Session descriptions (SDP, in SAP announcements) are the daemon's to read and write
//! (`daemon/src/services/discovery/sdp.ts`): the engine is told the format of each RTP source.
//!
//! A new input or output format (an encoded stream's framing) gets its module here.

pub mod packet;
pub mod rtcp;
pub mod rtp;
pub mod scream;
pub mod tagged;

/// What a receiving port carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortKind {
    Scream,
    TaggedScream,
    Rtp,
    Rtcp,
}

impl PortKind {
    /// The kind of sender whose packets arrive on such a port (RTCP belongs to RTP).
    pub const fn sender(self) -> SenderKind {
        match self {
            PortKind::Scream => SenderKind::Scream,
            PortKind::TaggedScream => SenderKind::ScreamTagged,
            PortKind::Rtp | PortKind::Rtcp => SenderKind::Rtp,
        }
    }
}

crate::report::report_enum! {
    /// What a sender sends: the protocol its packets arrive in.
    #[js = "SenderKind"]
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum SenderKind {
        /// Scream (a Scream driver, an ESP32).
        #[js = "scream"]
        Scream,
        /// Per-application Scream (Tributary's tag before the Scream header).
        #[js = "scream-tagged"]
        ScreamTagged,
        /// RTP.
        #[js = "rtp"]
        Rtp,
        /// An in-process source: frames written from memory (no packets).
        #[js = "memory"]
        Memory,
    }
}
