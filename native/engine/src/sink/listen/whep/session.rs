//! One WHEP listener: a str0m [`Rtc`] answering the browser's recvonly offer with a sendonly
//! Opus track, its candidates and its statistics from the listener's RTCP receiver reports.

use crate::sink::listen::whep::restart;
use crate::sink::listen::whep::token::new_etag;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use str0m::change::SdpOffer;
use str0m::format::{Codec, FormatParams};
use str0m::media::{Frequency, MediaKind, Mid, Pt};
use str0m::{Candidate, Event, IceConnectionState, Rtc};
use tributary_codec::OpusProfile;

/// The payload type the answer offers Opus on when the browser's offer does not decide.
const PT_OPUS: u8 = 111;
/// How often str0m reports statistics (from RTCP) to the session.
const STATS_INTERVAL: Duration = Duration::from_secs(1);

/// What a session measured (the driver thread writes, [`super::WhepServer::stats`] copies).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SessionStats {
    pub sink_id: String,
    pub profile: &'static str,
    /// RTP packets and Opus payload bytes handed to str0m to send.
    pub packets: u64,
    pub bytes: u64,
    /// Packets the listener reported lost (RTCP receiver reports) and the fraction lost lately.
    pub packets_lost: u64,
    pub loss: f64,
    /// Interarrival jitter the listener reported, seconds.
    pub jitter_s: f64,
    /// Round-trip time from RTCP, seconds (`None` before the first report).
    pub rtt_s: Option<f64>,
    /// The listener's address of the selected candidate pair, once connected.
    pub remote: Option<SocketAddr>,
    pub connected: bool,
    /// Seconds since the offer.
    pub duration_s: f64,
    /// Packets not sent: the session was not connected yet or str0m refused them.
    pub dropped: u64,
    /// ICE restarts the listener asked for (a PATCH with new credentials).
    pub ice_restarts: u64,
}

pub struct Session {
    pub rtc: Rtc,
    pub client: String,
    pub profile: OpusProfile,
    pub started: Instant,
    /// The last datagram from the listener (ICE consent, RTCP, DTLS).
    pub last_heard: Instant,
    pub timeout: Duration,
    mid: Option<Mid>,
    pt: Option<Pt>,
    pub stats: SessionStats,
    pub closed: bool,
    /// Addresses the listener's packets came from (claimed for it), at most 16.
    pub peers: Vec<SocketAddr>,
    /// The listener's offer (re-accepted with new credentials for an ICE restart).
    offer_sdp: String,
    /// The listener's current `ice-ufrag` (another one in a PATCH is an ICE restart).
    remote_ufrag: String,
    /// The entity tag of the current ICE session (a new one after each restart).
    pub etag: String,
    /// DTLS came up once (ICE connecting again after a restart resumes the media).
    secure: bool,
}

/// What a PATCH did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Patched {
    /// Trickled candidates added (how many).
    Trickled(usize),
    /// ICE restarted: the server's fragment (new credentials, candidates) and new entity tag.
    Restarted { fragment: String, etag: String },
}

impl Session {
    /// Answers `offer_sdp` with host candidates at `local` (the server's sockets). Errors
    /// name what is wrong with the offer.
    pub fn answer(
        offer_sdp: &str,
        local: &[SocketAddr],
        sink_id: &str,
        client: &str,
        profile: OpusProfile,
        timeout: Duration,
        now: Instant,
    ) -> Result<(Self, String), String> {
        let offer = SdpOffer::from_sdp_string(offer_sdp)
            .map_err(|e| format!("the offer is not valid SDP: {e}"))?;
        let mut config = Rtc::builder()
            .clear_codecs()
            .set_stats_interval(Some(STATS_INTERVAL));
        config.codec_config().add_config(
            PT_OPUS.into(),
            None,
            Codec::Opus,
            Frequency::FORTY_EIGHT_KHZ,
            Some(2),
            FormatParams {
                min_p_time: Some(10),
                use_inband_fec: Some(true),
                stereo: Some(true),
                sprop_stereo: Some(true),
                ..Default::default()
            },
        );
        let mut rtc = config.build(now);
        for addr in local {
            let candidate = Candidate::host(*addr, "udp")
                .map_err(|e| format!("cannot use {addr} as a candidate: {e}"))?;
            rtc.add_local_candidate(candidate);
        }
        let answer = rtc
            .sdp_api()
            .accept_offer(offer)
            .map_err(|e| format!("cannot answer the offer: {e}"))?;
        let answer = answer.to_sdp_string();
        if !answer.contains("opus/48000") {
            return Err("the offer has no Opus audio to receive (m=audio with opus/48000)".into());
        }
        let remote_ufrag = restart::ice_credentials(offer_sdp).map_or(String::new(), |c| c.0);
        let stats = SessionStats {
            sink_id: sink_id.to_string(),
            profile: profile.name,
            ..SessionStats::default()
        };
        let session = Self {
            rtc,
            client: client.to_string(),
            profile,
            started: now,
            last_heard: now,
            timeout,
            mid: None,
            pt: None,
            stats,
            closed: false,
            peers: Vec::new(),
            offer_sdp: offer_sdp.to_string(),
            remote_ufrag,
            etag: new_etag(),
            secure: false,
        };
        Ok((session, answer))
    }

    /// A PATCH's `application/trickle-ice-sdpfrag`: new ICE credentials restart ICE (str0m
    /// re-accepts the first offer with them, which flushes the old candidate pairs and makes
    /// new local credentials), then every `a=candidate:` line is added. `Err` names what is
    /// wrong with the fragment.
    pub fn patch(&mut self, frag: &str) -> Result<Patched, String> {
        let restart = restart::ice_credentials(frag).filter(|(u, _)| *u != self.remote_ufrag);
        let Some((ufrag, pwd)) = restart else {
            return self.add_candidates(frag).map(Patched::Trickled);
        };
        let sdp = restart::reoffer(&self.offer_sdp, &ufrag, &pwd);
        let offer = SdpOffer::from_sdp_string(&sdp)
            .map_err(|e| format!("the ICE restart's offer is not valid SDP: {e}"))?;
        let answer = self
            .rtc
            .sdp_api()
            .accept_offer(offer)
            .map_err(|e| format!("cannot restart ICE: {e}"))?;
        let fragment = restart::answer_fragment(&answer.to_sdp_string())?;
        self.offer_sdp = sdp;
        self.remote_ufrag = ufrag;
        self.etag = new_etag();
        self.stats.ice_restarts += 1;
        self.add_candidates(frag)?;
        Ok(Patched::Restarted {
            fragment,
            etag: self.etag.clone(),
        })
    }

    /// Trickled candidates (`application/trickle-ice-sdpfrag`): each `a=candidate:` line is
    /// added; `Err` names a line str0m cannot read. Returns how many were added.
    pub fn add_candidates(&mut self, frag: &str) -> Result<usize, String> {
        let mut added = 0;
        for line in frag.lines().map(str::trim) {
            let Some(c) = line.strip_prefix("a=") else {
                continue;
            };
            if !c.starts_with("candidate:") {
                continue;
            }
            let candidate = Candidate::from_sdp_string(c)
                .map_err(|e| format!("unreadable candidate line {line:?}: {e}"))?;
            self.rtc.add_remote_candidate(candidate);
            added += 1;
        }
        Ok(added)
    }

    /// An event of str0m for this session.
    pub fn on_event(&mut self, event: Event) {
        match event {
            Event::MediaAdded(m) if m.kind == MediaKind::Audio && self.mid.is_none() => {
                self.mid = Some(m.mid);
            }
            Event::Connected => {
                self.secure = true;
                self.stats.connected = true;
            }
            Event::IceConnectionStateChange(IceConnectionState::Disconnected) => {
                self.stats.connected = false;
            }
            Event::IceConnectionStateChange(
                IceConnectionState::Connected | IceConnectionState::Completed,
            ) if self.secure => self.stats.connected = true,
            Event::Closed => self.closed = true,
            Event::MediaEgressStats(s) => {
                self.stats.rtt_s = s.rtt.map(|d| d.as_secs_f64());
                if let Some(loss) = s.loss {
                    self.stats.loss = f64::from(loss);
                }
                if let Some(remote) = s.remote {
                    self.stats.packets_lost = remote.packets_lost;
                    self.stats.jitter_s = f64::from(remote.jitter) / 48_000.0;
                }
            }
            Event::PeerStats(p) => {
                if let Some(pair) = p.selected_candidate_pair {
                    self.stats.remote = Some(pair.remote.addr);
                }
            }
            _ => {}
        }
    }

    /// Sends one Opus packet (dropped and counted when the session cannot send yet).
    pub fn send(&mut self, data: &std::sync::Arc<[u8]>, rtp_time: u64, now: Instant) {
        let Some(mid) = self.mid.filter(|_| self.stats.connected) else {
            self.stats.dropped += 1;
            return;
        };
        let Some(writer) = self.rtc.writer(mid) else {
            self.stats.dropped += 1;
            return;
        };
        let pt = match self.pt {
            Some(pt) => pt,
            None => {
                let Some(pt) = writer
                    .payload_params()
                    .find(|p| p.spec().codec == Codec::Opus)
                    .map(|p| p.pt())
                else {
                    self.stats.dropped += 1;
                    return;
                };
                self.pt = Some(pt);
                pt
            }
        };
        let time = str0m::media::MediaTime::new(rtp_time, Frequency::FORTY_EIGHT_KHZ);
        if writer.write(pt, now, time, data.clone()).is_ok() {
            self.stats.packets += 1;
            self.stats.bytes += data.len() as u64;
        } else {
            self.stats.dropped += 1;
        }
    }

    /// The listener went quiet for its timeout (no consent checks, no RTCP), or closed.
    pub fn expired(&self, now: Instant) -> bool {
        self.closed || !self.rtc.is_alive() || now.duration_since(self.last_heard) >= self.timeout
    }
}
