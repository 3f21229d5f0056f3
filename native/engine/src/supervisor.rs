//! The supervised engine: [`Engine`] starts the engine ([`crate::engine::Control`]) and a
//! supervisor thread. A panic on any of the engine's threads is caught where it happens and
//! reported here; the engine thread then drops its graph (its state may be half-updated) and
//! waits, and the supervisor rebuilds the graph from the current configuration after a short
//! pause (during which [`Engine::health`] says it is restarting and why). A source or sink that
//! the engine was working on in [`STRIKES`] faults within [`STRIKE_WINDOW`] is quarantined:
//! left out of the graph, with a problem saying so, until its settings change or
//! [`QUARANTINE_FOR`] has passed; the others play on. Faults charged to nothing that keep coming
//! ([`GIVE_UP_AFTER`] within the window) stop the restarts until the next configuration.

use crate::config::{ConfigError, DesiredState, EngineOptions};
#[cfg(feature = "fault-injection")]
use crate::engine::Command;
use crate::engine::{BoundPorts, Control, EngineStats, UnknownSender};
use crate::fault::{self, Culprit, Fault, Message};
#[cfg(feature = "fault-injection")]
use crate::fault_injection::FaultInjection;
use crate::health::{
    describe, quarantine_message, settings_of, EngineHealth, FaultReport, HealthState, Last,
    QuarantineReport, Quarantined, GIVE_UP_AFTER, QUARANTINE_FOR, RESTART_DELAY, STRIKES,
    STRIKE_WINDOW,
};
use std::collections::HashMap;
use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Everything behind the one lock.
struct Inner {
    control: Control,
    /// The last state given to `apply`, before quarantine.
    desired: DesiredState,
    state: HealthState,
    reason: Option<String>,
    faults: u64,
    restarts: u64,
    last: Option<Last>,
    strikes: HashMap<String, Vec<Instant>>,
    unattributed: Vec<Instant>,
    quarantined: Vec<Quarantined>,
}

impl Inner {
    /// Releases quarantines that ran out or whose settings changed; true if one was.
    fn release(&mut self, now: Instant) -> bool {
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

    /// Applies the desired state (less what is quarantined) to the control.
    fn apply_desired(&mut self) -> Result<Vec<ConfigError>, ConfigError> {
        let (state, mut problems) = self.playable();
        let mut played = self.control.apply(state)?;
        played.append(&mut problems);
        Ok(played)
    }

    /// Notes a fault: counts it, charges it, maybe quarantines; true when the graph must be
    /// rebuilt.
    fn note(&mut self, fault: Fault) -> bool {
        self.faults += 1;
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

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // A panic while holding the lock (a bug on the control side) leaves data that is still
    // consistent (every change is made at the end of `apply`): carry on with it.
    inner.lock().unwrap_or_else(|e| e.into_inner())
}

fn supervise(inner: &Mutex<Inner>, messages: &Receiver<Message>) {
    loop {
        match messages.recv_timeout(Duration::from_secs(1)) {
            Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
            Ok(Message::Fault(fault)) => {
                crate::log::error(&describe(&fault));
                if !lock(inner).note(fault) {
                    continue;
                }
                // Faults arriving during the pause are counted; one rebuild follows.
                let until = Instant::now() + RESTART_DELAY;
                while let Some(left) = until.checked_duration_since(Instant::now()) {
                    match messages.recv_timeout(left) {
                        Ok(Message::Fault(more)) => {
                            crate::log::error(&describe(&more));
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
                if guard.state == HealthState::Running && guard.release(Instant::now()) {
                    let _ = guard.apply_desired();
                }
            }
        }
    }
}

/// A running, supervised engine. Dropping it stops it.
pub struct Engine {
    inner: Arc<Mutex<Inner>>,
    messages: Sender<Message>,
    supervisor: Option<JoinHandle<()>>,
}

impl Engine {
    /// Binds every receiver and starts the engine and its supervisor. Fails (with the port in
    /// the message) if a socket cannot be bound.
    pub fn start(options: EngineOptions) -> io::Result<Engine> {
        fault::install_panic_hook();
        let (messages, inbox) = mpsc::channel();
        let control = Control::start(options, messages.clone())?;
        let inner = Arc::new(Mutex::new(Inner {
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
        }));
        let shared = inner.clone();
        let supervisor = std::thread::Builder::new()
            .name("trib-supervisor".into())
            .spawn(move || supervise(&shared, &inbox))?;
        Ok(Engine {
            inner,
            messages,
            supervisor: Some(supervisor),
        })
    }

    /// Makes the running graph match `state` (see [`Control::apply`]): sinks the engine cannot
    /// play, and sources or sinks in quarantine, are left out, one problem each. After restarts
    /// stopped ([`HealthState::Failed`]), a new state starts the engine again. `Err` only when
    /// the engine has stopped.
    pub fn apply(&mut self, state: DesiredState) -> Result<Vec<ConfigError>, ConfigError> {
        let mut inner = lock(&self.inner);
        inner.desired = state;
        inner.release(Instant::now());
        if inner.state == HealthState::Failed {
            inner.control.lost_graph();
        }
        let result = inner.apply_desired();
        if result.is_ok() && inner.state != HealthState::Restarting {
            inner.state = HealthState::Running;
            inner.reason = None;
        }
        result
    }

    /// A snapshot of every counter.
    pub fn stats(&self) -> EngineStats {
        lock(&self.inner).control.stats()
    }

    /// The ports actually bound.
    pub fn ports(&self) -> BoundPorts {
        lock(&self.inner).control.ports().clone()
    }

    /// Senders no source matches and heard in the last minute, most recent first.
    pub fn unknown_senders(&self) -> Vec<UnknownSender> {
        lock(&self.inner).control.unknown_senders()
    }

    /// Faults, restarts and quarantines.
    pub fn health(&self) -> EngineHealth {
        let inner = lock(&self.inner);
        let now = Instant::now();
        EngineHealth {
            state: inner.state,
            reason: inner.reason.clone(),
            faults: inner.faults,
            restarts: inner.restarts,
            last_fault: inner.last.as_ref().map(|l| FaultReport {
                thread: l.fault.thread.clone(),
                reason: l.fault.reason.clone(),
                culprit: l.fault.culprit.clone(),
                ms_ago: now.saturating_duration_since(l.fault.at).as_secs_f64() * 1000.0,
                restart_ms: l.restarted_after.map(|d| d.as_secs_f64() * 1000.0),
            }),
            quarantined: inner
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

    /// Test builds only: makes a fault happen (see [`FaultInjection`]).
    #[cfg(feature = "fault-injection")]
    pub fn inject_fault(&self, fault: FaultInjection) -> bool {
        lock(&self.inner).control.command(Command::Inject(fault))
    }

    /// Stops every thread and closes every socket. Idempotent.
    pub fn stop(&mut self) {
        let _ = self.messages.send(Message::Stop);
        if let Some(t) = self.supervisor.take() {
            let _ = t.join();
        }
        lock(&self.inner).control.stop();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
