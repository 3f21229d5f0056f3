//! What the supervisor ([`crate::runtime::supervisor`]) reports: the engine's state, its last fault,
//! its quarantines; the supervision policy (how long, how many); and the bookkeeping of a
//! quarantine.

use crate::desired::{DesiredState, SinkSpec};
use crate::runtime::fault::{Culprit, Fault};
use std::time::{Duration, Instant};

/// Pause between a fault and the rebuild: the fault is visible, and a fault on every packet
/// cannot spin the engine thread.
pub const RESTART_DELAY: Duration = Duration::from_millis(200);
/// Faults charged to one source or sink within [`STRIKE_WINDOW`] that quarantine it.
pub const STRIKES: usize = 3;
pub const STRIKE_WINDOW: Duration = Duration::from_secs(60);
/// How long a quarantine lasts unless the settings of what it holds change first.
pub const QUARANTINE_FOR: Duration = Duration::from_secs(300);
/// Faults charged to nothing within [`STRIKE_WINDOW`] after which restarts stop.
pub const GIVE_UP_AFTER: usize = 5;

/// Whether the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HealthState {
    Running,
    /// A thread failed; the graph is rebuilt shortly.
    Restarting,
    /// Faults kept coming; restarts wait for the next configuration.
    Failed,
}

/// The last fault.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultReport {
    pub thread: String,
    pub reason: String,
    pub culprit: Option<Culprit>,
    pub ms_ago: f64,
    /// Fault to rebuilt graph, ms; `None` while restarting (or when no rebuild was needed).
    pub restart_ms: Option<f64>,
}

/// A source or sink left out because it kept making the engine fail.
#[derive(Clone, Debug, PartialEq)]
pub struct QuarantineReport {
    pub culprit: Culprit,
    /// The message also returned by `apply` and shown in the problems.
    pub message: String,
    pub ms_left: f64,
}

/// The supervisor's view.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineHealth {
    pub state: HealthState,
    /// Why it is restarting or failed.
    pub reason: Option<String>,
    pub faults: u64,
    pub restarts: u64,
    pub last_fault: Option<FaultReport>,
    pub quarantined: Vec<QuarantineReport>,
}

pub(crate) struct Quarantined {
    pub culprit: Culprit,
    pub reason: String,
    pub until: Instant,
    /// The settings it was quarantined with: other settings release it.
    pub settings: String,
}

pub(crate) struct Last {
    pub fault: Fault,
    pub restarted_after: Option<Duration>,
}

/// The settings of a source or sink that decide how it plays, as text to compare.
pub(crate) fn settings_of(state: &DesiredState, culprit: &Culprit) -> Option<String> {
    match culprit {
        Culprit::Source { id, .. } => state
            .sinks
            .iter()
            .flat_map(|s| &s.paths)
            .find(|p| &p.source_id == id)
            .map(|p| format!("{:?} {:?} {:?}", p.ip, p.tag, p.rtp)),
        Culprit::Sink { id, .. } => state.sinks.iter().find(|s| &s.id == id).map(sink_settings),
    }
}

fn sink_settings(s: &SinkSpec) -> String {
    format!(
        "{:?} {} {:?} {} {} {} {:?} {}",
        s.ip, s.port, s.protocol, s.sample_rate, s.bit_depth, s.channels, s.layout, s.normalize
    )
}

pub(crate) fn describe(fault: &Fault) -> String {
    let on = fault
        .culprit
        .as_ref()
        .map(|c| format!(" while playing {}", c.describe()))
        .unwrap_or_default();
    format!("thread {} failed{on}: {}", fault.thread, fault.reason)
}

pub(crate) fn quarantine_message(q: &Quarantined, now: Instant) -> String {
    let left = q.until.saturating_duration_since(now).as_secs();
    format!(
        "{} is quarantined: it made the engine fail {STRIKES} times within {} s (last: {}); it \
         plays again when its settings change, or in {left} s",
        q.culprit.describe(),
        STRIKE_WINDOW.as_secs(),
        q.reason
    )
}
