//! The runtime: threads, sockets and the handle.
//!
//! - [`engine`]: [`engine::Engine`], the supervised engine users hold;
//! - [`supervisor`] and [`health`]: faults, restarts and quarantines; [`fault`]: what a fault
//!   is and who it is charged to; [`fault_injection`] (test builds only);
//! - [`control`]: the control side of a running engine; [`plan`]: a change of graph planned
//!   off the real-time thread; [`worker`]: the engine thread (and [`ingest`], its packets;
//!   [`lead`], how far ahead of their deadlines it renders sinks' packets);
//! - [`net`]: the receiver threads; [`scheduling`]: real-time priority for the engine's
//!   threads; [`stats`]: engine-wide counters and the statistics snapshot; [`levels`]: the
//!   sinks' levels and spectra for meters and visualizers; [`malloc_arenas`]: a cap on glibc's
//!   malloc arenas, which threads that come and go would otherwise multiply.

pub mod control;
pub mod engine;
pub mod fault;
#[cfg(feature = "fault-injection")]
pub mod fault_injection;
pub mod health;
mod ingest;
pub mod lead;
pub mod levels;
pub mod malloc_arenas;
pub mod net;
pub mod plan;
pub mod scheduling;
pub mod stats;
pub mod supervisor;
pub mod worker;
