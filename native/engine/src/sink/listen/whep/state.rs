//! What the WebRTC thread and the API share, behind one lock (never the engine thread's).

use crate::sink::listen::whep::feed::Feed;
use crate::sink::listen::whep::session::Session;
use std::collections::HashMap;
use std::net::UdpSocket;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

/// What the thread counts across sessions.
#[derive(Debug, Default)]
pub struct DriverCounters {
    /// Datagrams no session claimed (stray or hostile), dropped.
    pub stray: AtomicU64,
    /// Datagrams str0m could not send (the socket refused).
    pub send_errors: AtomicU64,
    /// Added latency, microseconds: from the audio leaving the tap to its RTP packet handed to
    /// the socket, the latest and the largest since the server started.
    pub latency_us: AtomicU64,
    pub max_latency_us: AtomicU64,
}

/// Everything the thread and the API share (behind one lock; never the engine thread's).
#[derive(Default)]
pub struct State {
    pub sockets: Vec<UdpSocket>,
    pub sessions: HashMap<String, Session>,
    /// Feeds by sink id.
    pub feeds: HashMap<String, Feed>,
    pub running: bool,
    pub counters: Arc<DriverCounters>,
    /// Sessions freed because they closed or went quiet.
    pub expired: u64,
    pub next_id: u64,
}

pub fn lock(shared: &Mutex<State>) -> MutexGuard<'_, State> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}
