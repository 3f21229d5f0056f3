//! Real-time scheduling (`SCHED_FIFO`) for the engine's threads. Audio must not wait behind compilers and
//! browsers: the engine thread asks for `SCHED_FIFO` (as JACK and PipeWire do), and falls back
//! to a raised nice level, then to nothing, when the process is not allowed (no root, no
//! `LimitRTPRIO=`/`CAP_SYS_NICE` in its systemd unit). It never fails the engine.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// The scheduling the calling thread ended up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    Realtime,
    Nice,
    Normal,
}

static WARNED: AtomicBool = AtomicBool::new(false);

/// Raises the calling thread to `SCHED_FIFO` at `priority` (1-99), or nice -10.
pub fn raise_current_thread(priority: i32) -> Priority {
    let param = libc::sched_param {
        sched_priority: priority.clamp(1, 99),
    };
    // SAFETY: pthread_self() is the calling thread; the param struct outlives the call.
    let rc = unsafe { libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_FIFO, &param) };
    if rc == 0 {
        return Priority::Realtime;
    }
    // SAFETY: gettid has no preconditions; setpriority on our own thread id.
    let nice = unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, -10)
    };
    if nice == 0 {
        return Priority::Nice;
    }
    if !WARNED.swap(true, Relaxed) {
        log::info!(
            "real-time scheduling not permitted; audio threads run at normal priority \
             (grant CAP_SYS_NICE or LimitRTPRIO= to the service for glitch-free audio under load)"
        );
    }
    Priority::Normal
}
