//! The decoder threads of one engine's decoded sources, by source id: shared by the binding's
//! `Engine` (which stops them on `removeMemorySource` and `stop`) and each `DecodedSource`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tributary_decode::DecodeThread;

/// An engine's decoder threads by source id (the engine and each `DecodedSource` share it).
#[derive(Clone, Default)]
pub(crate) struct Decoders(Arc<Mutex<HashMap<String, Arc<DecodeThread>>>>);

impl Decoders {
    pub(crate) fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<DecodeThread>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn contains(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// Stops `id`'s decoder thread (waiting for it) and forgets it; false when there is none.
    pub(crate) fn stop(&self, id: &str) -> bool {
        let thread = self.lock().remove(id);
        thread.map(|t| t.stop()).is_some()
    }

    pub(crate) fn stop_all(&self) {
        let all: Vec<_> = self.lock().drain().collect();
        for (_, t) in all {
            t.stop();
        }
    }
}
