//! Senders no source matches: remembered on the engine thread (the most recent
//! [`MAX_UNKNOWN`]), published every stats round, and reported for the dashboard to offer as
//! new sources.

use crate::source::counters::unpack_format;
use crate::wire::SenderKind;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Unknown senders remembered.
pub const MAX_UNKNOWN: usize = 64;
/// How long a sender stays in the report after its last packet.
const REPORTED_FOR_MS: f64 = 60_000.0;

/// A sender no source matched, as the engine thread records it.
#[derive(Clone, Debug)]
pub struct Unknown {
    pub kind: SenderKind,
    pub address: IpAddr,
    pub port: u16,
    pub tag: Option<String>,
    pub packets: u64,
    /// Its format, packed by [`crate::source::counters::pack_format`].
    pub format: u64,
    pub last_seen: Instant,
}

/// The engine thread's list, and the copy it publishes to the control side.
pub struct UnknownSenders {
    list: Vec<Unknown>,
    dirty: bool,
    shared: Arc<Mutex<Vec<Unknown>>>,
}

impl UnknownSenders {
    /// An empty list publishing to `shared`.
    pub fn new(shared: Arc<Mutex<Vec<Unknown>>>) -> Self {
        Self {
            list: Vec::with_capacity(MAX_UNKNOWN),
            dirty: false,
            shared,
        }
    }

    /// Notes a packet from a sender no source matched. Allocates only to remember a new one
    /// (its tag), replacing the longest silent when the list is full.
    pub fn note(
        &mut self,
        kind: SenderKind,
        address: IpAddr,
        port: u16,
        tag: Option<&str>,
        format: u64,
    ) {
        let now = Instant::now();
        self.dirty = true;
        if let Some(u) = self.list.iter_mut().find(|u| {
            u.kind == kind && u.address == address && u.port == port && u.tag.as_deref() == tag
        }) {
            u.packets += 1;
            u.last_seen = now;
            u.format = format;
            return;
        }
        if self.list.len() == MAX_UNKNOWN {
            if let Some(oldest) = self
                .list
                .iter()
                .enumerate()
                .min_by_key(|(_, u)| u.last_seen)
                .map(|(i, _)| i)
            {
                self.list.swap_remove(oldest);
            }
        }
        self.list.push(Unknown {
            kind,
            address,
            port,
            tag: tag.map(str::to_owned),
            packets: 1,
            format,
            last_seen: now,
        });
    }

    /// Forgets the senders `known` now matches (a source was added for them).
    pub fn forget(&mut self, known: impl Fn(&Unknown) -> bool) {
        self.list.retain(|u| !known(u));
        self.dirty = true;
    }

    /// Copies the list to the control side if it changed (and the lock is free right now: the
    /// engine thread never waits for it).
    pub fn publish(&mut self) {
        if self.dirty {
            if let Ok(mut shared) = self.shared.try_lock() {
                shared.clone_from(&self.list);
                self.dirty = false;
            }
        }
    }
}

crate::report::report! {
    /// A sender no source matches, for the dashboard to offer as a new source.
    #[js = "EngineUnknownSender"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct UnknownSender {
        /// What it sends.
        pub kind: SenderKind,
        /// Sender IP address.
        #[example = "192.168.1.30"]
        pub address: String,
        /// Local port it arrived on.
        #[example = "4010"]
        pub port: u32,
        /// Per-application tag (`ip/program`) for tagged Scream; a source with this tag plays
        /// it. Null otherwise.
        pub tag: Option<String>,
        /// Packets heard.
        pub packets: u64,
        /// What it sends, for example `scream s16le 48000 Hz 2 ch`.
        pub format: Option<String>,
        /// Time since its last packet, ms.
        #[minimum = 0.0]
        pub last_seen_ms_ago: f64,
    }
}

/// The senders of `shared` heard in the last minute, most recent first.
pub fn report(shared: &Mutex<Vec<Unknown>>) -> Vec<UnknownSender> {
    let now = Instant::now();
    let list = shared.lock().map(|l| l.clone()).unwrap_or_default();
    let mut out: Vec<UnknownSender> = list
        .into_iter()
        .map(|u| UnknownSender {
            kind: u.kind,
            address: u.address.to_string(),
            port: u32::from(u.port),
            tag: u.tag,
            packets: u.packets,
            format: unpack_format(u.format).map(|f| f.describe()),
            last_seen_ms_ago: now.saturating_duration_since(u.last_seen).as_secs_f64() * 1000.0,
        })
        .collect();
    out.retain(|u| u.last_seen_ms_ago < REPORTED_FOR_MS);
    out.sort_by(|a, b| a.last_seen_ms_ago.total_cmp(&b.last_seen_ms_ago));
    out
}
