//! WebRTC listening (WHEP) as JavaScript sees it: `engine.whepOffer`, `whepPatch`,
//! `whepClose`, `whepSessions`, `whepStatus` (see `tributary_engine::WhepServer`). The audio
//! never crosses into JavaScript: the engine encodes and sends; the daemon only signals.

use crate::engine::Engine;
use napi::bindgen_prelude::{Either, Null};
use napi::{Error, Status};
use napi_derive::napi;
use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tributary_codec::OPUS_PROFILES;
use tributary_engine::{WhepBind, WhepError, WhepPatchError, WhepPatched, WhepRequest};

#[napi(object)]
pub struct WhepOfferOptions {
    /// The Opus profile: low_latency (64 kbit/s, complexity 5), balanced (128 kbit/s, 8) or
    /// high_quality (256 kbit/s, 10).
    pub profile: String,
    /// Who asks (kept with the session; the daemon replaces a client's older session).
    pub client: String,
    /// A session without a datagram from its listener for this long is freed, milliseconds.
    pub timeout_ms: u32,
    /// Addresses the UDP sockets bind (all interfaces' when absent or empty); used when the
    /// WebRTC thread starts (with the first session).
    pub addresses: Option<Vec<String>>,
    /// UDP port of those sockets (ephemeral when absent or 0).
    pub port: Option<u32>,
}

#[napi(object)]
pub struct WhepAnswer {
    pub session_id: String,
    pub answer_sdp: String,
    /// The entity tag of the session's ICE session (unquoted; a PATCH's If-Match names it).
    pub etag: String,
}

/// What a PATCH did.
#[napi(string_enum = "lowercase")]
pub enum WhepPatchOutcome {
    /// Candidates added.
    Trickled,
    /// New ICE credentials: ICE restarted; `fragment` and `etag` are the server's new ones.
    Restarted,
    /// If-Match names another ICE session than the current one: nothing changed.
    Stale,
    /// No session by that id.
    Unknown,
}

#[napi(object)]
pub struct WhepPatchResult {
    pub outcome: WhepPatchOutcome,
    /// Candidates added.
    pub added: u32,
    /// The answer to a restart (`application/trickle-ice-sdpfrag`).
    pub fragment: Option<String>,
    /// The session's entity tag now (unquoted); absent for an unknown session.
    pub etag: Option<String>,
}

/// A session and what its listener's RTCP receiver reports said.
#[napi(object)]
pub struct WhepSession {
    pub id: String,
    pub sink_id: String,
    pub client: String,
    pub profile: String,
    pub connected: bool,
    pub packets: f64,
    pub bytes: f64,
    pub packets_lost: f64,
    /// Fraction lost lately (0-1).
    pub loss: f64,
    pub jitter_s: f64,
    /// Round-trip time, seconds; null before the first report.
    pub rtt_s: Either<f64, Null>,
    /// The listener's address and port; null before ICE selected a pair.
    pub remote: Either<String, Null>,
    pub duration_s: f64,
    /// Packets not sent (before the session connected, or refused).
    pub dropped: f64,
    /// ICE restarts the listener asked for.
    pub ice_restarts: f64,
}

/// The WebRTC thread and its sockets.
#[napi(object)]
pub struct WhepStatus {
    pub running: bool,
    /// "ip:port" of each socket (empty while stopped).
    pub addresses: Vec<String>,
    /// Datagrams no session claimed, dropped.
    pub stray: f64,
    pub send_errors: f64,
    /// Sessions freed because they closed or went quiet.
    pub expired: f64,
    /// From audio leaving the sink's tap to its RTP packet handed to the socket, latest and
    /// largest, milliseconds.
    pub latency_ms: f64,
    pub max_latency_ms: f64,
}

#[napi]
impl Engine {
    /// Answers a browser's recvonly offer for the playing sink `sinkId` (its config_id).
    /// Throws `InvalidArg` for an offer the engine cannot answer (the reason in the message),
    /// `GenericFailure` when the sink is not playing or no socket can be bound.
    #[napi(catch_unwind)]
    pub fn whep_offer(
        &mut self,
        sink_id: String,
        offer_sdp: String,
        options: WhepOfferOptions,
    ) -> napi::Result<WhepAnswer> {
        let mut addresses = Vec::new();
        for a in options.addresses.unwrap_or_default() {
            let ip: IpAddr = a.parse().map_err(|_| {
                Error::new(Status::InvalidArg, format!("{a:?} is not an IP address"))
            })?;
            addresses.push(ip);
        }
        let bind = WhepBind {
            addresses,
            port: options.port.unwrap_or(0).min(65_535) as u16,
        };
        let profile = *OPUS_PROFILES
            .iter()
            .find(|p| p.name == options.profile)
            .ok_or_else(|| {
                let msg = format!("unknown Opus profile {:?}", options.profile);
                Error::new(Status::InvalidArg, msg)
            })?;
        let req = WhepRequest {
            sink_id: &sink_id,
            offer_sdp: &offer_sdp,
            profile,
            client: &options.client,
            timeout: Duration::from_millis(u64::from(options.timeout_ms)),
        };
        match self.core()?.whep_offer(&req, &bind) {
            Ok(a) => Ok(WhepAnswer {
                session_id: a.id,
                answer_sdp: a.answer_sdp,
                etag: a.etag,
            }),
            Err(WhepError::BadOffer(m)) => Err(Error::new(Status::InvalidArg, m)),
            Err(WhepError::Unavailable(m)) => Err(Error::new(Status::GenericFailure, m)),
        }
    }

    /// A PATCH of a session (`application/trickle-ice-sdpfrag`) with the request's If-Match
    /// value (absent: any): trickled candidates, or an ICE restart when the fragment carries
    /// new ice-ufrag/ice-pwd. Throws `InvalidArg` naming what it cannot read.
    #[napi(catch_unwind)]
    pub fn whep_patch(
        &mut self,
        session_id: String,
        frag: String,
        if_match: Option<String>,
    ) -> napi::Result<WhepPatchResult> {
        let whep = &self.core()?.whep;
        let result = |outcome, added, fragment, etag| WhepPatchResult {
            outcome,
            added,
            fragment,
            etag,
        };
        match whep.patch(&session_id, &frag, if_match.as_deref()) {
            Ok(WhepPatched::Trickled(n)) => {
                let etag = whep.etag(&session_id);
                Ok(result(WhepPatchOutcome::Trickled, n as u32, None, etag))
            }
            Ok(WhepPatched::Restarted { fragment, etag }) => Ok(result(
                WhepPatchOutcome::Restarted,
                0,
                Some(fragment),
                Some(etag),
            )),
            Err(WhepPatchError::Stale { current }) => {
                Ok(result(WhepPatchOutcome::Stale, 0, None, Some(current)))
            }
            Err(WhepPatchError::NoSession) => Ok(result(WhepPatchOutcome::Unknown, 0, None, None)),
            Err(WhepPatchError::BadFragment(m)) => Err(Error::new(Status::InvalidArg, m)),
        }
    }

    /// Ends a session; false if there is none by that id.
    #[napi(catch_unwind)]
    pub fn whep_close(&mut self, session_id: String) -> napi::Result<bool> {
        Ok(self.core()?.whep.close(&session_id))
    }

    /// Every open session with its statistics.
    #[napi(catch_unwind)]
    pub fn whep_sessions(&mut self) -> napi::Result<Vec<WhepSession>> {
        let sessions = self.core()?.whep.sessions();
        Ok(sessions
            .into_iter()
            .map(|s| {
                let st = s.stats;
                WhepSession {
                    id: s.id,
                    sink_id: st.sink_id,
                    client: s.client,
                    profile: st.profile.to_string(),
                    connected: st.connected,
                    packets: st.packets as f64,
                    bytes: st.bytes as f64,
                    packets_lost: st.packets_lost as f64,
                    loss: st.loss,
                    jitter_s: st.jitter_s,
                    rtt_s: st.rtt_s.map_or(Either::B(Null), Either::A),
                    remote: st
                        .remote
                        .map_or(Either::B(Null), |a| Either::A(a.to_string())),
                    duration_s: st.duration_s,
                    dropped: st.dropped as f64,
                    ice_restarts: st.ice_restarts as f64,
                }
            })
            .collect())
    }

    /// The WebRTC thread's state and counters.
    #[napi(catch_unwind)]
    pub fn whep_status(&mut self) -> napi::Result<WhepStatus> {
        let whep = &self.core()?.whep;
        let (counters, expired) = whep.counters();
        Ok(WhepStatus {
            running: whep.is_running(),
            addresses: whep
                .local_addresses()
                .iter()
                .map(ToString::to_string)
                .collect(),
            stray: counters.stray.load(Relaxed) as f64,
            send_errors: counters.send_errors.load(Relaxed) as f64,
            expired: expired as f64,
            latency_ms: counters.latency_us.load(Relaxed) as f64 / 1000.0,
            max_latency_ms: counters.max_latency_us.load(Relaxed) as f64 / 1000.0,
        })
    }
}
