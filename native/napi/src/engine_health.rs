//! `engine.health()`: the supervisor's view (faults of the engine's threads, restarts,
//! quarantined sources and sinks), and `Engine.check(state)`: whether the engine would take a
//! state, without applying it (the daemon asks before saving a change).

use crate::engine::Engine;
use crate::engine_state::{desired_state, EngineState};
use napi_derive::napi;
use tributary_engine::Culprit;
use tributary_engine::HealthState;

/// Whether the engine plays: `restarting` (a thread failed; the graph is rebuilt shortly) or
/// `failed` (faults kept coming; the next configuration starts it again).
#[napi(string_enum = "lowercase")]
pub enum HealthStateName {
    Running,
    Restarting,
    Failed,
}

/// What a fault is charged to.
#[napi(string_enum = "lowercase")]
pub enum CulpritKind {
    Source,
    Sink,
}

/// The source or sink a fault is charged to.
#[napi(object)]
pub struct EngineCulprit {
    pub kind: CulpritKind,
    #[napi(js_name = "config_id")]
    pub config_id: String,
    pub name: String,
}

/// The last fault of one of the engine's threads.
#[napi(object)]
pub struct EngineFault {
    /// `trib-engine` (the audio thread) or `trib-rx-PORT` (a receiver).
    pub thread: String,
    /// The panic's message and location.
    pub reason: String,
    /// The source or sink it was working on, when it was working on one.
    pub culprit: Option<EngineCulprit>,
    #[napi(js_name = "ms_ago")]
    pub ms_ago: f64,
    /// Fault to rebuilt graph, ms; absent while restarting.
    #[napi(js_name = "restart_ms")]
    pub restart_ms: Option<f64>,
}

/// A source or sink left out because it kept making the engine fail.
#[napi(object)]
pub struct EngineQuarantine {
    pub kind: CulpritKind,
    #[napi(js_name = "config_id")]
    pub config_id: String,
    pub name: String,
    pub message: String,
    #[napi(js_name = "ms_left")]
    pub ms_left: f64,
}

/// The supervisor's view of the engine.
#[napi(object)]
pub struct EngineHealth {
    pub state: HealthStateName,
    /// Why it is restarting or failed.
    pub reason: Option<String>,
    pub faults: f64,
    pub restarts: f64,
    #[napi(js_name = "last_fault")]
    pub last_fault: Option<EngineFault>,
    pub quarantined: Vec<EngineQuarantine>,
}

fn culprit(c: &Culprit) -> EngineCulprit {
    let (kind, id, name) = match c {
        Culprit::Source { id, name } => (CulpritKind::Source, id, name),
        Culprit::Sink { id, name } => (CulpritKind::Sink, id, name),
    };
    EngineCulprit {
        kind,
        config_id: id.clone(),
        name: name.clone(),
    }
}

#[napi]
impl Engine {
    /// Faults, restarts and quarantines (see `EngineHealth`).
    #[napi(catch_unwind)]
    pub fn health(&mut self) -> napi::Result<EngineHealth> {
        let h = self.core()?.health();
        Ok(EngineHealth {
            state: match h.state {
                HealthState::Running => HealthStateName::Running,
                HealthState::Restarting => HealthStateName::Restarting,
                HealthState::Failed => HealthStateName::Failed,
            },
            reason: h.reason,
            faults: h.faults as f64,
            restarts: h.restarts as f64,
            last_fault: h.last_fault.map(|f| EngineFault {
                culprit: f.culprit.as_ref().map(culprit),
                thread: f.thread,
                reason: f.reason,
                ms_ago: f.ms_ago,
                restart_ms: f.restart_ms,
            }),
            quarantined: h
                .quarantined
                .into_iter()
                .map(|q| {
                    let EngineCulprit {
                        kind,
                        config_id,
                        name,
                    } = culprit(&q.culprit);
                    EngineQuarantine {
                        kind,
                        config_id,
                        name,
                        message: q.message,
                        ms_left: q.ms_left,
                    }
                })
                .collect(),
        })
    }

    /// Why the engine would refuse `state` (a bad address, protocol or layout name), or null
    /// when it would take it; nothing is applied. The daemon asks before saving a change, so a
    /// configuration the engine cannot play is refused instead of saved.
    #[napi(catch_unwind)]
    pub fn check(state: EngineState) -> Option<String> {
        desired_state(state).err().map(|e| e.reason.clone())
    }
}
