//! Faults of the engine's own threads: the panic's message and location, and who the fault is
//! charged to (what the thread was working on, see [`crate::work`]). The supervisor
//! ([`crate::runtime::supervisor`]) restarts the engine from these and quarantines a source or
//! sink that keeps failing.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Once;
use std::time::Instant;

thread_local! {
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Who a fault is charged to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Culprit {
    Source { id: String, name: String },
    Sink { id: String, name: String },
}

impl Culprit {
    pub fn id(&self) -> &str {
        match self {
            Culprit::Source { id, .. } | Culprit::Sink { id, .. } => id,
        }
    }

    /// `source 'PC'` or `sink 'Kitchen'`.
    pub fn describe(&self) -> String {
        match self {
            Culprit::Source { name, .. } => format!("source '{name}'"),
            Culprit::Sink { name, .. } => format!("sink '{name}'"),
        }
    }
}

/// A thread of the engine failed.
#[derive(Clone, Debug)]
pub struct Fault {
    /// The thread's name (`trib-engine`, `trib-rx-4010`).
    pub thread: String,
    /// The panic's message, with its location when known.
    pub reason: String,
    /// The source or sink it was working on, when it was working on one.
    pub culprit: Option<Culprit>,
    pub at: Instant,
    /// Whether the engine thread's graph was lost (the supervisor rebuilds it); a receiver
    /// restarts its own loop.
    pub lost_graph: bool,
}

/// What the engine's threads tell the supervisor.
pub(crate) enum Message {
    Fault(Fault),
    Stop,
}

impl Fault {
    /// A fault from a caught panic's payload (its message and location), now.
    pub(crate) fn caught(
        thread: String,
        payload: &(dyn Any + Send),
        culprit: Option<Culprit>,
        lost_graph: bool,
    ) -> Fault {
        Fault {
            thread,
            reason: reason_of(payload),
            culprit,
            at: Instant::now(),
            lost_graph,
        }
    }
}

/// The message a panic's payload carries.
fn message_of(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// The message of a caught panic, followed by where it happened (recorded by the hook).
pub fn reason_of(payload: &(dyn Any + Send)) -> String {
    let message = message_of(payload).to_owned();
    match LOCATION.with(|l| l.borrow_mut().take()) {
        Some(at) => format!("{message} (at {at})"),
        None => message,
    }
}

/// Records the location of panics on the engine's threads (named `trib-*`) for [`reason_of`].
/// A panic on a thread the supervisor catches is printed as one line: the supervisor reports it
/// (reason and location, in the health and the daemon's log), where the default hook would also
/// capture and symbolise a backtrace when RUST_BACKTRACE is set, on the panicking thread before
/// the supervisor hears of it (in a debug build under load, over 500 ms of the restart). Every
/// other panic goes to the hook installed before.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let Some(name) = thread.name().filter(|n| n.starts_with("trib-")) else {
                previous(info);
                return;
            };
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()));
            // Only the threads whose panics the supervisor catches (worker.rs, net.rs); the
            // others' (encoders, senders) are reported as Rust reports them.
            if !(name == "trib-engine" || name.starts_with("trib-rx-")) {
                LOCATION.with(|cell| *cell.borrow_mut() = at);
                previous(info);
                return;
            }
            eprintln!(
                "thread '{name}' panicked at {}: {} (caught: the supervisor restarts the engine)",
                at.as_deref().unwrap_or("an unknown place"),
                message_of(info.payload())
            );
            LOCATION.with(|cell| *cell.borrow_mut() = at);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::{current, working_on, Work};

    #[test]
    fn a_caught_panic_on_an_engine_thread_says_what_and_where() {
        install_panic_hook();
        let reason = std::thread::Builder::new()
            .name("trib-test".into())
            .spawn(|| {
                working_on(Work::Source(3));
                let caught = std::panic::catch_unwind(|| {
                    let v: Vec<u8> = Vec::new();
                    let i = v.len() + 2;
                    v[i]
                });
                (reason_of(&*caught.unwrap_err()), current())
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(reason.0.contains("index out of bounds"), "{}", reason.0);
        assert!(
            reason.0.contains("(at native/engine/src/runtime/fault.rs:"),
            "{}",
            reason.0
        );
        assert_eq!(reason.1, Work::Source(3), "still known after the unwind");
    }
}
