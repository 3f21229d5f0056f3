//! Tributary's audio engine: the data plane between the network and the DSP core. JavaScript
//! is never on the per-packet path: the napi binding only starts, configures, reads stats and
//! stops.
//!
//! By stage, in the order a packet travels:
//!
//! - [`wire`]: the formats on the network (Scream, tagged Scream, RTP, RTCP, SDP);
//! - [`source`]: per source, its buffer (jitter and timeshift), clock drift, counters, and
//!   the senders no source matches;
//! - [`graph`]: taps (a source read at a delay and a sink rate, shared) and paths (a source on
//!   a sink: matrix, EQ, volume);
//! - [`sink`]: per sink, the clock, the mix and the transport that sends it;
//! - [`runtime`]: the threads, sockets, supervision, plans and statistics.
//!
//! What the engine is told: [`options`] (at start) and [`desired`] (on every change), within
//! the bounds of [`limits`].

pub mod desired;
pub mod graph;
pub mod limits;
pub mod logging;
pub mod options;
pub mod report;
pub mod ring;
pub mod runtime;
pub mod sink;
pub mod source;
pub mod wire;
pub mod work;

pub use desired::{ConfigError, DesiredState, PathSpec, RtpSourceSpec, SinkProtocol, SinkSpec};
pub use logging::{LogLevel, LogLine};
pub use options::{EngineOptions, JitterConfig};
pub use runtime::engine::{Engine, MemorySources};
pub use runtime::fault::Culprit;
#[cfg(feature = "fault-injection")]
pub use runtime::fault_injection::FaultInjection;
pub use runtime::health::{EngineHealth, FaultReport, HealthState, QuarantineReport};
pub use runtime::levels::Levels;
pub use runtime::stats::{BoundPorts, EngineStats, PathStats, SinkStats, SourceStats};
pub use sink::listen::mp3::{Deliver, Mp3Stream, Mp3StreamStats};
pub use sink::listen::socket::tcp_send_queue;
pub use sink::listen::whep::session::Patched as WhepPatched;
pub use sink::listen::whep::session::SessionStats as WhepSessionStats;
pub use sink::listen::whep::{
    WhepAnswer, WhepBind, WhepError, WhepPatchError, WhepRequest, WhepServer, WhepSessionInfo,
};
pub use source::memory::{MemoryFormat, MemoryWriter};
pub use source::unknown::UnknownSender;
pub use wire::SenderKind;

/// The unit tests' allocator: the system's, counting what each thread allocates, so a test can
/// prove that a real-time call allocates nothing (other tests run on other threads).
#[cfg(test)]
pub(crate) mod test_alloc {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    /// Allocations made so far on this thread.
    pub fn on_this_thread() -> u64 {
        ALLOCATIONS.with(Cell::get)
    }

    struct Counting;

    // SAFETY: forwards to the system allocator unchanged; only counts calls.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: same contract as the caller's.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;
}
