//! SIGTERM and SIGINT ask the receiver to stop: the handler only sets a flag the main loop
//! reads, so the stream and the engine close in order.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Relaxed);
}

/// Installs the handlers (SIGTERM, SIGINT).
pub fn install() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(signal, on_signal as *const () as libc::sighandler_t);
        }
    }
}

/// Whether a stop was asked for.
pub fn stop_requested() -> bool {
    STOP.load(Relaxed)
}
