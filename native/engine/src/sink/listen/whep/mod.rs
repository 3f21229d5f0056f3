//! WebRTC listening (WHEP): a sink's mix as Opus to browsers, with str0m (sans-IO).
//!
//! One [`WhepServer`] per engine: UDP sockets shared by every session (one per local address
//! the answers announce as host candidates), one thread ([`driver`]) that runs everything, a
//! [`feed::Feed`] per sink listened to (its WebRTC tap and one Opus encoder per profile in use,
//! shared by that sink's sessions) and a [`session::Session`] per listener. The thread runs
//! while a session exists: the last session gone, it stops and its sockets close.

pub mod driver;
pub mod feed;
pub mod restart;
pub mod session;
pub mod state;
pub mod token;

use crate::sink::listen::whep::feed::Feed;
use crate::sink::listen::whep::session::{Patched, Session, SessionStats};
use crate::sink::listen::whep::state::{lock, DriverCounters, State};
use crate::sink::listen::whep::token::random_u64;
use crate::sink::SinkCounters;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tributary_codec::OpusProfile;

/// A listener's request.
pub struct WhepRequest<'a> {
    pub sink_id: &'a str,
    pub offer_sdp: &'a str,
    pub profile: OpusProfile,
    /// Who asks (the daemon's key for "the same client"), kept for [`WhepServer::sessions`].
    pub client: &'a str,
    /// Without a datagram from the listener for this long, the session is freed.
    pub timeout: Duration,
}

/// Where the server's sockets bind: these addresses (all interfaces' when empty) on `port`
/// (ephemeral when 0).
#[derive(Clone, Debug, Default)]
pub struct WhepBind {
    pub addresses: Vec<IpAddr>,
    pub port: u16,
}

/// Why an offer was not answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhepError {
    /// The offer itself (not SDP, no Opus audio to receive): the listener's fault.
    BadOffer(String),
    /// The server cannot take it now (the sink is not playing, no socket, no thread).
    Unavailable(String),
}

impl std::fmt::Display for WhepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadOffer(m) | Self::Unavailable(m) => f.write_str(m),
        }
    }
}

/// An answered offer.
#[derive(Clone, Debug)]
pub struct WhepAnswer {
    pub id: String,
    pub answer_sdp: String,
    /// The entity tag of the session's ICE session (`ETag`; PATCHes match it).
    pub etag: String,
}

/// Why a PATCH was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhepPatchError {
    /// No session by that id.
    NoSession,
    /// `If-Match` names another ICE session than the current one (a PATCH from before a
    /// restart): nothing was changed.
    Stale { current: String },
    /// The fragment (a candidate line, the credentials) cannot be used: the reason.
    BadFragment(String),
}

/// A session as [`WhepServer::sessions`] lists it.
#[derive(Clone, Debug)]
pub struct WhepSessionInfo {
    pub id: String,
    pub client: String,
    pub stats: SessionStats,
}

#[derive(Default)]
pub struct WhepServer {
    shared: Arc<Mutex<State>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    stop: Arc<AtomicBool>,
}

impl WhepServer {
    /// Answers a listener's offer for the sink whose tap is `sink` (playing at `rate`).
    /// `Err` names what is wrong (the offer, or the sockets).
    pub fn offer(
        &self,
        sink: Arc<SinkCounters>,
        rate: u32,
        req: &WhepRequest<'_>,
        bind: &WhepBind,
    ) -> Result<WhepAnswer, WhepError> {
        use WhepError::{BadOffer, Unavailable};
        let mut thread = self.thread.lock().unwrap_or_else(|e| e.into_inner());
        let mut state = lock(&self.shared);
        if !state.running {
            if let Some(old) = thread.take() {
                drop(state);
                let _ = old.join();
                state = lock(&self.shared);
            }
            state.sockets = bind_sockets(bind).map_err(Unavailable)?;
        }
        let local: Vec<SocketAddr> = state
            .sockets
            .iter()
            .filter_map(|s| s.local_addr().ok())
            .collect();
        let now = Instant::now();
        let (session, answer) = Session::answer(
            req.offer_sdp,
            &local,
            req.sink_id,
            req.client,
            req.profile,
            req.timeout,
            now,
        )
        .map_err(BadOffer)?;
        if !state.feeds.contains_key(req.sink_id) {
            let feed = Feed::open(sink, rate).map_err(|e| Unavailable(e.0))?;
            state.feeds.insert(req.sink_id.to_string(), feed);
        }
        if let Some(feed) = state.feeds.get_mut(req.sink_id) {
            feed.want(req.profile).map_err(|e| Unavailable(e.0))?;
        }
        state.next_id += 1;
        let id = format!("{:016x}{:08x}", random_u64(), state.next_id);
        let etag = session.etag.clone();
        state.sessions.insert(id.clone(), session);
        if !state.running {
            state.running = true;
            self.stop.store(false, Relaxed);
            let (shared, stop) = (self.shared.clone(), self.stop.clone());
            let spawned = std::thread::Builder::new()
                .name("trib-webrtc".into())
                .spawn(move || driver::run(&shared, &stop));
            match spawned {
                Ok(handle) => *thread = Some(handle),
                Err(e) => {
                    state.running = false;
                    state.sessions.clear();
                    state.feeds.clear();
                    state.sockets.clear();
                    return Err(Unavailable(format!("cannot start the WebRTC thread: {e}")));
                }
            }
        }
        Ok(WhepAnswer {
            id,
            answer_sdp: answer,
            etag,
        })
    }

    /// A PATCH of session `id` (`application/trickle-ice-sdpfrag`) with the request's
    /// `If-Match` value: trickled candidates, or an ICE restart when the fragment carries new
    /// credentials (see [`restart`]).
    pub fn patch(
        &self,
        id: &str,
        frag: &str,
        if_match: Option<&str>,
    ) -> Result<Patched, WhepPatchError> {
        let mut state = lock(&self.shared);
        let session = state
            .sessions
            .get_mut(id)
            .ok_or(WhepPatchError::NoSession)?;
        if !restart::if_match_allows(if_match, &session.etag) {
            return Err(WhepPatchError::Stale {
                current: session.etag.clone(),
            });
        }
        session.patch(frag).map_err(WhepPatchError::BadFragment)
    }

    /// The entity tag of session `id`'s ICE session.
    pub fn etag(&self, id: &str) -> Option<String> {
        lock(&self.shared).sessions.get(id).map(|s| s.etag.clone())
    }

    /// Ends session `id` (the thread frees it on its next pass); `false` if unknown.
    pub fn close(&self, id: &str) -> bool {
        let mut state = lock(&self.shared);
        match state.sessions.get_mut(id) {
            Some(s) => {
                s.closed = true;
                s.rtc.disconnect();
                state.sessions.remove(id);
                true
            }
            None => false,
        }
    }

    /// Every open session.
    pub fn sessions(&self) -> Vec<WhepSessionInfo> {
        let state = lock(&self.shared);
        state
            .sessions
            .iter()
            .map(|(id, s)| WhepSessionInfo {
                id: id.clone(),
                client: s.client.clone(),
                stats: s.stats.clone(),
            })
            .collect()
    }

    /// The thread's counters, and how many sessions were freed since the engine started.
    pub fn counters(&self) -> (Arc<DriverCounters>, u64) {
        let state = lock(&self.shared);
        (state.counters.clone(), state.expired)
    }

    /// Whether the thread runs (it stops when the last session is gone).
    pub fn is_running(&self) -> bool {
        lock(&self.shared).running
    }

    /// The addresses the sockets listen on (empty when stopped).
    pub fn local_addresses(&self) -> Vec<SocketAddr> {
        let state = lock(&self.shared);
        state
            .sockets
            .iter()
            .filter_map(|s| s.local_addr().ok())
            .collect()
    }
}

impl Drop for WhepServer {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

fn bind_sockets(bind: &WhepBind) -> Result<Vec<UdpSocket>, String> {
    let addresses = if bind.addresses.is_empty() {
        interface_addresses()
    } else {
        bind.addresses.clone()
    };
    let mut sockets = Vec::new();
    for ip in addresses {
        let socket = UdpSocket::bind((ip, bind.port)).map_err(|e| {
            format!(
                "cannot bind WebRTC UDP socket on {ip} port {}: {e}",
                bind.port
            )
        })?;
        socket
            .set_nonblocking(true)
            .map_err(|e| format!("cannot make the WebRTC socket non-blocking: {e}"))?;
        sockets.push(socket);
    }
    if sockets.is_empty() {
        return Err("no address to listen on for WebRTC".into());
    }
    Ok(sockets)
}

/// The addresses of every interface that is up (IPv4, and IPv6 but link-local ones, which
/// need a scope the candidates cannot carry).
pub fn interface_addresses() -> Vec<IpAddr> {
    let mut out = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a linked list we free with freeifaddrs below.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return out;
    }
    let mut at = list;
    while !at.is_null() {
        // SAFETY: `at` is a node of the list getifaddrs returned, valid until freeifaddrs.
        let ifa = unsafe { &*at };
        at = ifa.ifa_next;
        let up = ifa.ifa_flags & libc::IFF_UP as u32 != 0;
        if ifa.ifa_addr.is_null() || !up {
            continue;
        }
        // SAFETY: ifa_addr is non-null and its family says which sockaddr it is.
        let family = i32::from(unsafe { (*ifa.ifa_addr).sa_family });
        if family == libc::AF_INET {
            // SAFETY: an AF_INET address is a sockaddr_in.
            let sin = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in) };
            out.push(IpAddr::from(
                u32::from_be(sin.sin_addr.s_addr).to_be_bytes(),
            ));
        } else if family == libc::AF_INET6 {
            // SAFETY: an AF_INET6 address is a sockaddr_in6.
            let sin6 = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in6) };
            let ip = std::net::Ipv6Addr::from(sin6.sin6_addr.s6_addr);
            if ip.segments()[0] & 0xffc0 != 0xfe80 {
                out.push(IpAddr::V6(ip));
            }
        }
    }
    // SAFETY: `list` came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(list) };
    out.dedup();
    out
}

#[cfg(test)]
mod tests;
