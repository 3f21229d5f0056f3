//! Test builds only (cargo feature `fault-injection`, never in the product): faults armed on
//! the engine thread to test that the engine survives them (see [`crate::runtime::supervisor`]).

/// Test builds only (cargo feature `fault-injection`): a fault to make happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultInjection {
    /// The engine thread panics at its next loop.
    EnginePanic,
    /// The engine thread panics while buffering the next `times` packets of this source.
    SourcePanic { source_id: String, times: u32 },
}

/// What is armed.
#[derive(Default)]
pub struct Armed {
    engine_panic: bool,
    source: Option<(String, u32)>,
}

impl Armed {
    pub fn arm(&mut self, fault: FaultInjection) {
        match fault {
            FaultInjection::EnginePanic => self.engine_panic = true,
            FaultInjection::SourcePanic { source_id, times } => {
                self.source = Some((source_id, times));
            }
        }
    }

    /// Panics once if an engine panic is armed.
    pub fn engine_panic(&mut self) {
        if std::mem::take(&mut self.engine_panic) {
            panic!("injected fault: the engine thread panics");
        }
    }

    /// Panics if a fault is armed for the packets of source `id` (and counts it down).
    pub fn source_packet(&mut self, id: &str) {
        if let Some((armed, times)) = &mut self.source {
            if armed == id && *times > 0 {
                *times -= 1;
                panic!("injected fault: a packet of source '{id}'");
            }
        }
    }
}
