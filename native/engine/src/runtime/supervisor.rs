//! The supervision of a running engine ([`crate::runtime::control::Control`]): the public
//! [`crate::Engine`] starts it on a thread of its own. A panic on any of the engine's threads is caught where it happens and
//! reported here; the engine thread then drops its graph (its state may be half-updated) and
//! waits, and the supervisor rebuilds the graph from the current configuration after a short
//! pause (during which [`Engine::health`] says it is restarting and why). A source or sink that
//! the engine was working on in [`STRIKES`] faults within [`STRIKE_WINDOW`] is quarantined:
//! left out of the graph, with a problem saying so, until its settings change or
//! [`QUARANTINE_FOR`] has passed; the others play on. Faults charged to nothing that keep coming
//! ([`GIVE_UP_AFTER`] within the window) stop the restarts until the next configuration.

use crate::desired::{ConfigError, DesiredState};
use crate::runtime::control::Control;
use crate::runtime::fault::{Culprit, Fault, Message};
use crate::runtime::health::{
    describe, quarantine_message, settings_of, EngineHealth, FaultReport, HealthState, Last,
    QuarantineReport, Quarantined, GIVE_UP_AFTER, QUARANTINE_FOR, RESTART_DELAY, STRIKES,
    STRIKE_WINDOW,
};
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Everything behind the one lock.
pub(crate) struct Inner {
    pub(crate) control: Control,
    /// The last state given to `apply`, before quarantine.
    pub(crate) desired: DesiredState,
    pub(crate) state: HealthState,
    pub(crate) reason: Option<String>,
    pub(crate) faults: u64,
    pub(crate) restarts: u64,
    pub(crate) last: Option<Last>,
    pub(crate) strikes: HashMap<String, Vec<Instant>>,
    pub(crate) unattributed: Vec<Instant>,
    pub(crate) quarantined: Vec<Quarantined>,
}

impl Inner {
    /// A fresh record for `control`, running.
    pub(crate) fn new(control: Control) -> Self {
        Self {
            control,
            desired: DesiredState::default(),
            state: HealthState::Running,
            reason: None,
            faults: 0,
            restarts: 0,
            last: None,
            strikes: HashMap::new(),
            unattributed: Vec::new(),
            quarantined: Vec::new(),
        }
    }

    /// Faults, restarts and quarantines, now.
    pub(crate) fn health(&self) -> EngineHealth {
        let now = Instant::now();
        EngineHealth {
            state: self.state,
            reason: self.reason.clone(),
            faults: self.faults,
            restarts: self.restarts,
            last_fault: self.last.as_ref().map(|l| FaultReport {
                thread: l.fault.thread.clone(),
                reason: l.fault.reason.clone(),
                culprit: l.fault.culprit.clone(),
                ms_ago: now.saturating_duration_since(l.fault.at).as_secs_f64() * 1000.0,
                restart_ms: l.restarted_after.map(|d| d.as_secs_f64() * 1000.0),
            }),
            quarantined: self
                .quarantined
                .iter()
                .map(|q| QuarantineReport {
                    culprit: q.culprit.clone(),
                    message: quarantine_message(q, now),
                    ms_left: q.until.saturating_duration_since(now).as_secs_f64() * 1000.0,
                })
                .collect(),
        }
    }

    /// Releases quarantines that ran out or whose settings changed; true if one was.
    pub(crate) fn release(&mut self, now: Instant) -> bool {
        let before = self.quarantined.len();
        let desired = &self.desired;
        self.quarantined.retain(|q| {
            q.until > now && settings_of(desired, &q.culprit).is_none_or(|s| s == q.settings)
        });
        self.quarantined.len() != before
    }

    /// The desired state without what is quarantined, and a problem for each.
    fn playable(&self) -> (DesiredState, Vec<ConfigError>) {
        let mut state = self.desired.clone();
        let now = Instant::now();
        let mut problems = Vec::new();
        for q in &self.quarantined {
            match &q.culprit {
                Culprit::Source { id, .. } => {
                    for sink in &mut state.sinks {
                        sink.paths.retain(|p| &p.source_id != id);
                    }
                }
                Culprit::Sink { id, .. } => state.sinks.retain(|s| &s.id != id),
            }
            problems.push(ConfigError(quarantine_message(q, now)));
        }
        (state, problems)
    }

    /// Plays the desired state again after an in-process source came or went (while restarting
    /// or stopped for good, the next rebuild or `apply` picks it up).
    pub(crate) fn apply_memory_change(&mut self) -> Result<(), ConfigError> {
        if self.state == HealthState::Running {
            self.apply_desired()?;
        }
        Ok(())
    }

    /// Applies the desired state (less what is quarantined) to the control.
    pub(crate) fn apply_desired(&mut self) -> Result<Vec<ConfigError>, ConfigError> {
        let (state, mut problems) = self.playable();
        let mut played = self.control.apply(state)?;
        played.append(&mut problems);
        Ok(played)
    }

    /// Counts a fault, quarantines its culprit after [`STRIKES`], gives up after
    /// [`GIVE_UP_AFTER`] unattributed ones, and logs it (once: the daemon does not log it
    /// again) with what follows. True when the graph must be rebuilt.
    fn note(&mut self, fault: Fault) -> bool {
        self.faults += 1;
        let line = describe(&fault);
        let mut quarantined = None;
        let now = fault.at;
        let rebuild = fault.lost_graph;
        if rebuild {
            self.control.lost_graph();
            self.state = HealthState::Restarting;
            self.reason = Some(describe(&fault));
        }
        let recent = |times: &mut Vec<Instant>| {
            times.retain(|t| now.saturating_duration_since(*t) < STRIKE_WINDOW);
            times.push(now);
            times.len()
        };
        if let Some(culprit) = &fault.culprit {
            let strikes = recent(self.strikes.entry(culprit.id().to_owned()).or_default());
            let held = self.quarantined.iter().any(|q| q.culprit == *culprit);
            if strikes >= STRIKES && !held {
                let settings = settings_of(&self.desired, culprit).unwrap_or_default();
                self.quarantined.push(Quarantined {
                    culprit: culprit.clone(),
                    reason: fault.reason.clone(),
                    until: now + QUARANTINE_FOR,
                    settings,
                });
                self.strikes.remove(culprit.id());
                quarantined = self.quarantined.last().map(|q| quarantine_message(q, now));
            }
        }
        let unattributed = rebuild && fault.culprit.is_none();
        if unattributed && recent(&mut self.unattributed) >= GIVE_UP_AFTER {
            self.state = HealthState::Failed;
            self.reason = Some(format!(
                "the engine failed {GIVE_UP_AFTER} times within {} s (last: {}); it starts \
                 again with the next configuration change",
                STRIKE_WINDOW.as_secs(),
                fault.reason
            ));
        }
        match (&self.state, &self.reason) {
            (HealthState::Failed, Some(reason)) => log::error!("{line}; {reason}"),
            _ if rebuild => log::error!("{line}; restarting it"),
            _ => log::error!("{line}"),
        }
        if let Some(message) = quarantined {
            log::error!("{message}");
        }
        self.last = Some(Last {
            fault,
            restarted_after: None,
        });
        rebuild
    }

    /// Rebuilds the graph after a fault.
    fn restart(&mut self) {
        if self.state != HealthState::Restarting {
            return; // failed for good, or an apply rebuilt it meanwhile
        }
        self.release(Instant::now());
        match self.apply_desired() {
            Ok(_) => {
                self.restarts += 1;
                self.state = HealthState::Running;
                self.reason = None;
                if let Some(last) = &mut self.last {
                    last.restarted_after = Some(last.fault.at.elapsed());
                }
            }
            Err(e) => {
                self.state = HealthState::Failed;
                self.reason = Some(format!("the engine could not restart: {e}"));
            }
        }
    }
}

pub(crate) fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // A panic while holding the lock (a bug on the control side) leaves data that is still
    // consistent (every change is made at the end of `apply`): carry on with it.
    inner.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn supervise(inner: &Mutex<Inner>, messages: &Receiver<Message>) {
    loop {
        match messages.recv_timeout(Duration::from_secs(1)) {
            Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
            Ok(Message::Fault(fault)) => {
                if !lock(inner).note(fault) {
                    continue;
                }
                // Faults arriving during the pause are counted; one rebuild follows.
                let until = Instant::now() + RESTART_DELAY;
                while let Some(left) = until.checked_duration_since(Instant::now()) {
                    match messages.recv_timeout(left) {
                        Ok(Message::Fault(more)) => {
                            lock(inner).note(more);
                        }
                        Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                        Err(RecvTimeoutError::Timeout) => break,
                    }
                }
                lock(inner).restart();
            }
            Err(RecvTimeoutError::Timeout) => {
                let mut guard = lock(inner);
                guard.control.log_glitches();
                if guard.state == HealthState::Running && guard.release(Instant::now()) {
                    let _ = guard.apply_desired();
                }
            }
        }
    }
}
