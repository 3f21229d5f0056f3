//! `Engine`: the audio engine (`tributary-engine`) from JavaScript. Only converts types: the
//! engine runs on its own threads and JavaScript is never on the per-packet path. Its options
//! are `engine_options.rs`, the desired state `engine_state.rs`, what it reports
//! `engine_stats.rs` and `engine_health.rs`.

use napi::{Error, Status};
use napi_derive::napi;
use tributary_engine::Engine as Core;

use crate::convert::invalid;
use crate::decoders::Decoders;
use crate::engine_options::{core_options, EngineOptions};
use crate::engine_reports::{EngineStats, EngineUnknownSender};
use crate::engine_state::{desired_state, EngineState};
use crate::engine_stats::{self, EnginePorts};

/// The audio engine: receivers, jitter buffers, per-sink mixers and senders on their own
/// threads. Create it, `apply()` the solver output on every change, `stop()` it on shutdown.
#[napi]
pub struct Engine {
    pub(crate) inner: Option<Core>,
    /// Decoder threads feeding in-process sources (`addDecodedSource`).
    pub(crate) decoders: Decoders,
}

#[napi]
impl Engine {
    /// Binds every receiver port and starts the engine's threads. Throws if a port cannot be
    /// bound (the message names it).
    #[napi(constructor, catch_unwind)]
    pub fn new(options: Option<EngineOptions>) -> napi::Result<Self> {
        let opts = core_options(options.unwrap_or_default())?;
        // The engine's log goes to a queue the host takes it from (`takeEngineLog`).
        tributary_engine::logging::install();
        let core =
            Core::start(opts).map_err(|e| Error::new(Status::GenericFailure, e.to_string()))?;
        Ok(Self {
            inner: Some(core),
            decoders: Decoders::default(),
        })
    }

    /// Makes the running graph match the solver output. Unchanged paths play on without a gap;
    /// volume, EQ and delay changes ramp. Returns one message per sink the engine cannot play
    /// (e.g. `sinks[2].channels: 2 channels do not match channel_layout 5.1 (6 channels)`);
    /// those sinks are left out and everything else plays. Throws (InvalidArg) only when the
    /// state's shape is wrong (a bad address, protocol or layout name), changing nothing.
    #[napi(catch_unwind)]
    pub fn apply(&mut self, state: EngineState) -> napi::Result<Vec<String>> {
        let desired = desired_state(state)?;
        let problems = self
            .core()?
            .apply(desired)
            .map_err(|e| invalid(e.to_string()))?;
        Ok(problems.into_iter().map(|p| p.to_string()).collect())
    }

    /// Counters and estimates for every source and sink.
    #[napi(catch_unwind)]
    pub fn stats(&mut self) -> napi::Result<EngineStats> {
        Ok(self.core()?.stats().into())
    }

    /// Senders no source matches, most recently heard first.
    #[napi(catch_unwind)]
    pub fn unknown_senders(&mut self) -> napi::Result<Vec<EngineUnknownSender>> {
        Ok(self
            .core()?
            .unknown_senders()
            .into_iter()
            .map(EngineUnknownSender::from)
            .collect())
    }

    /// The ports actually bound (useful with port 0).
    #[napi(catch_unwind)]
    pub fn ports(&mut self) -> napi::Result<EnginePorts> {
        Ok(engine_stats::ports(&self.core()?.ports()))
    }

    /// Whether the engine is running (false after `stop()`).
    #[napi(getter)]
    pub fn running(&self) -> bool {
        self.inner.is_some()
    }

    /// Stops every thread and closes every socket; the ports are free when it returns.
    /// Calling it again does nothing.
    #[napi(catch_unwind)]
    pub fn stop(&mut self) {
        self.decoders.stop_all();
        if let Some(mut core) = self.inner.take() {
            core.stop();
        }
    }

    pub(crate) fn core(&mut self) -> napi::Result<&mut Core> {
        self.inner
            .as_mut()
            .ok_or_else(|| Error::new(Status::GenericFailure, "the engine is stopped"))
    }
}

impl Drop for Engine {
    /// Garbage collected without `stop()`: the decoder threads stop too (the core stops itself).
    fn drop(&mut self) {
        self.decoders.stop_all();
    }
}
