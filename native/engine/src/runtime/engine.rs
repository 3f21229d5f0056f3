//! The engine as its users see it: [`Engine`] starts the engine's threads and a supervisor
//! ([`crate::runtime::supervisor`]) that restarts them after a fault, applies desired states,
//! and reads statistics and health.

use crate::desired::{ConfigError, DesiredState};
use crate::options::EngineOptions;
use crate::runtime::control::Control;
use crate::runtime::fault::{self, Message};
#[cfg(feature = "fault-injection")]
use crate::runtime::fault_injection::FaultInjection;
use crate::runtime::health::{EngineHealth, HealthState};
use crate::runtime::levels::Levels;
use crate::runtime::stats::{BoundPorts, EngineStats};
use crate::runtime::supervisor::{lock, supervise, Inner};
#[cfg(feature = "fault-injection")]
use crate::runtime::worker::Command;
use crate::sink::listen::mp3::{Deliver, Mp3Stream};
use crate::sink::listen::whep::{WhepAnswer, WhepBind, WhepError, WhepRequest, WhepServer};
use crate::source::memory::{memory_source, MemoryFormat, MemoryWriter};
use crate::source::unknown::UnknownSender;
use std::io;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Instant;

/// A running, supervised engine. Dropping it stops it.
pub struct Engine {
    inner: Arc<Mutex<Inner>>,
    messages: Sender<Message>,
    supervisor: Option<JoinHandle<()>>,
    /// WebRTC listening (its thread runs only while a session exists).
    pub whep: WhepServer,
}

impl Engine {
    /// Binds every receiver and starts the engine and its supervisor. Fails (with the port in
    /// the message) if a socket cannot be bound.
    pub fn start(options: EngineOptions) -> io::Result<Engine> {
        fault::install_panic_hook();
        crate::runtime::malloc_arenas::limit_malloc_arenas();
        let (messages, inbox) = mpsc::channel();
        let control = Control::start(options, messages.clone())?;
        let inner = Arc::new(Mutex::new(Inner::new(control)));
        let shared = inner.clone();
        let supervisor = std::thread::Builder::new()
            .name("trib-supervisor".into())
            .spawn(move || supervise(&shared, &inbox))?;
        Ok(Engine {
            inner,
            messages,
            supervisor: Some(supervisor),
            whep: WhepServer::default(),
        })
    }

    /// Makes the running graph match `state` (see `Control::apply`): sinks the engine cannot
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

    /// Creates the in-process source `id` (see [`crate::source::memory`]): audio in `format`
    /// written to the returned writer plays on every sink a path names `id` on (at once when
    /// the applied state has one), through the same stages as a network source's. Fails for a
    /// format or ring length out of bounds (the error names the field) or an `id` already
    /// created. The same as [`MemorySources::add`].
    pub fn add_memory_source(
        &self,
        id: &str,
        format: MemoryFormat,
        ring_ms: u32,
    ) -> Result<MemoryWriter, ConfigError> {
        add_memory_source(&self.inner, id, format, ring_ms)
    }

    /// Removes the in-process source `id`: its paths stop (fading like a removed source's) and
    /// its writer's frames go nowhere. False when there is no such source.
    pub fn remove_memory_source(&self, id: &str) -> Result<bool, ConfigError> {
        remove_memory_source(&self.inner, id)
    }

    /// A handle that adds and removes in-process sources from another thread (a decoder thread
    /// that creates its source once it knows the format). It does not keep the engine alive:
    /// once the engine is dropped its calls fail.
    pub fn memory_sources(&self) -> MemorySources {
        MemorySources {
            inner: Arc::downgrade(&self.inner),
        }
    }

    /// A snapshot of every counter.
    pub fn stats(&self) -> EngineStats {
        lock(&self.inner).control.stats()
    }

    /// Starts an MP3 stream of the applied sink `id` (see [`Mp3Stream`]): `deliver` receives
    /// whole frames on the encoder's thread. Fails for an unknown sink, a bit rate MP3 does not
    /// have, or a sink that already has a stream.
    pub fn listen_mp3(
        &self,
        id: &str,
        bitrate_kbps: u32,
        deliver: Deliver,
    ) -> Result<Mp3Stream, ConfigError> {
        let inner = lock(&self.inner);
        let counters = inner
            .control
            .sink_counters(id)
            .ok_or_else(|| ConfigError(format!("no sink {id} is playing")))?;
        let rate = inner
            .desired
            .sinks
            .iter()
            .find(|s| s.id == id)
            .map_or(48_000, |s| s.sample_rate);
        drop(inner);
        Mp3Stream::start(counters, rate, bitrate_kbps, deliver).map_err(|e| ConfigError(e.0))
    }

    /// Answers a WebRTC listener's offer for the applied sink `req.sink_id` (see
    /// [`WhepServer::offer`]).
    pub fn whep_offer(
        &self,
        req: &WhepRequest<'_>,
        bind: &WhepBind,
    ) -> Result<WhepAnswer, WhepError> {
        let inner = lock(&self.inner);
        let counters = inner.control.sink_counters(req.sink_id).ok_or_else(|| {
            WhepError::Unavailable(format!("the sink {} is not playing", req.sink_id))
        })?;
        let rate = inner
            .desired
            .sinks
            .iter()
            .find(|s| s.id == req.sink_id)
            .map_or(48_000, |s| s.sample_rate);
        drop(inner);
        self.whep.offer(counters, rate, req, bind)
    }

    /// Peak, RMS, spectrum and waveform of the sinks in `ids` (all when empty), as sent. The
    /// engine measures a sink only while its levels are read (for two seconds after a read).
    pub fn levels(&self, ids: &[String]) -> Vec<Levels> {
        lock(&self.inner).control.levels(ids)
    }

    /// The same of the sources in `ids` (all when empty), as they enter the graph (after their
    /// jitter buffer, at the rate of a sink that plays them). A source is measured only while
    /// its levels are read; only the sources some path plays are known to the engine.
    pub fn source_levels(&self, ids: &[String]) -> Vec<Levels> {
        lock(&self.inner).control.source_levels(ids)
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
        lock(&self.inner).health()
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

/// Adds and removes the in-process sources of an engine from any thread (see
/// [`Engine::memory_sources`]). Cloneable; holds the engine weakly.
#[derive(Clone)]
pub struct MemorySources {
    inner: Weak<Mutex<Inner>>,
}

impl MemorySources {
    fn engine(&self) -> Result<Arc<Mutex<Inner>>, ConfigError> {
        self.inner
            .upgrade()
            .ok_or_else(|| ConfigError("the engine is stopped".into()))
    }

    /// [`Engine::add_memory_source`].
    pub fn add(
        &self,
        id: &str,
        format: MemoryFormat,
        ring_ms: u32,
    ) -> Result<MemoryWriter, ConfigError> {
        add_memory_source(&*self.engine()?, id, format, ring_ms)
    }

    /// [`Engine::remove_memory_source`].
    pub fn remove(&self, id: &str) -> Result<bool, ConfigError> {
        remove_memory_source(&*self.engine()?, id)
    }
}

fn add_memory_source(
    inner: &Mutex<Inner>,
    id: &str,
    format: MemoryFormat,
    ring_ms: u32,
) -> Result<MemoryWriter, ConfigError> {
    let (writer, ring) = memory_source(format, ring_ms)?;
    let mut inner = lock(inner);
    if !inner.control.add_memory_source(id, ring) {
        return Err(ConfigError(format!(
            "id: memory source '{id}' exists already"
        )));
    }
    inner.apply_memory_change()?;
    Ok(writer)
}

fn remove_memory_source(inner: &Mutex<Inner>, id: &str) -> Result<bool, ConfigError> {
    let mut inner = lock(inner);
    if !inner.control.remove_memory_source(id) {
        return Ok(false);
    }
    inner.apply_memory_change()?;
    Ok(true)
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
