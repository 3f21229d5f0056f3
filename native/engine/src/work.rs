//! What the current thread is working on: a source or a sink, by its index in the engine
//! thread's tables. Noted on the real-time path without allocating (a thread-local cell), so a
//! panic can be charged to the source or sink that caused it (see [`crate::runtime::fault`]).

use std::cell::Cell;

thread_local! {
    static WORK: Cell<Work> = const { Cell::new(Work::Idle) };
}

/// What the current thread is working on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    Idle,
    /// A source, by its index in the engine thread's table.
    Source(usize),
    /// A sink, by its index in the engine thread's table.
    Sink(usize),
}

/// Notes what this thread works on from now on (no allocation: a thread-local cell).
pub fn working_on(work: Work) {
    WORK.with(|w| w.set(work));
}

/// What this thread works on.
pub fn current() -> Work {
    WORK.with(Cell::get)
}
