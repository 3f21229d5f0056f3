//! Test builds only (cargo feature `fault-injection`, never in the published binding):
//! `engine.injectFault(kind, sourceId?, times?)` makes the engine's threads fail on purpose,
//! to test the supervision from JavaScript.

use crate::engine::Engine;
use napi::{Error, Status};
use napi_derive::napi;
use tributary_engine::FaultInjection;

/// A fault to make happen.
#[napi(string_enum = "kebab-case")]
pub enum FaultKind {
    EnginePanic,
    SourcePanic,
}

#[napi]
impl Engine {
    /// `engine-panic`: the engine thread panics once; `source-panic`: it panics on the next
    /// `times` (default 1) packets of source `sourceId`. Returns whether it was armed.
    #[napi(catch_unwind)]
    pub fn inject_fault(
        &mut self,
        #[napi(ts_arg_type = "FaultKind")] kind: String,
        source_id: Option<String>,
        times: Option<u32>,
    ) -> napi::Result<bool> {
        let fault = match (kind.as_str(), source_id) {
            ("engine-panic", _) => FaultInjection::EnginePanic,
            ("source-panic", Some(source_id)) => FaultInjection::SourcePanic {
                source_id,
                times: times.unwrap_or(1),
            },
            _ => {
                return Err(Error::new(
                    Status::InvalidArg,
                    "kind must be engine-panic, or source-panic with a source id",
                ))
            }
        };
        Ok(self.core()?.inject_fault(fault))
    }
}
