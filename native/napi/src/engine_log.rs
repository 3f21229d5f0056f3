//! `Engine.takeLog()`: the engine's log lines (its threads write them with the `log` crate into
//! a bounded queue, `tributary_engine::logging`), oldest first, for the daemon to write to its
//! own log. The queue is installed when the first engine starts; a line that finds it full is
//! dropped and counted (`log_dropped` in the engine's statistics). A static method, so the lines
//! are taken from the library the engine was loaded from (a test's fault-injecting binding is
//! another copy, with its own queue).

use crate::engine::Engine;
use crate::engine_reports::EngineLogLine;
use napi_derive::napi;

/// The most lines one call takes when `max` is absent (the queue's size).
const TAKE: usize = tributary_engine::logging::QUEUE_LINES;

#[napi]
impl Engine {
    /// Takes the engine's log lines written since the last call (at most `max`), oldest first.
    #[napi(catch_unwind)]
    pub fn take_log(max: Option<u32>) -> Vec<EngineLogLine> {
        let max = max.map_or(TAKE, |m| m as usize);
        tributary_engine::logging::drain(max)
            .into_iter()
            .map(EngineLogLine::from)
            .collect()
    }
}
