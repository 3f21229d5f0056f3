//! The engine's log. Its threads write with the `log` crate's macros (`log::warn!` ...); this is
//! the logger a host installs ([`install`]) and takes the lines from ([`drain`]). A line is
//! formatted into a fixed slot (at most [`MESSAGE_BYTES`], cut at a character with `…`) and
//! handed to a bounded queue without waiting: nothing allocates, nothing locks, nothing calls
//! into the host. A line that finds the queue full is dropped and counted ([`dropped`], in the
//! engine's statistics as `log_dropped`). The host reads the lines on its own thread and writes
//! them to its own log (the daemon: as JSON lines of its pino logger, `component: engine`).
//! With no host nothing is kept (cargo tests: the macros do nothing).

use log::{Level, LevelFilter, Log, Metadata, Record};
use std::fmt::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Mutex, OnceLock};

/// Lines the queue holds until the host takes them.
pub const QUEUE_LINES: usize = 256;
/// The longest message kept, bytes (UTF-8).
pub const MESSAGE_BYTES: usize = 480;
const TARGET_BYTES: usize = 64;
const CUT: &str = "…";

crate::report::report_enum! {
    /// How serious a line of the engine's log is.
    #[js = "LogLevel"]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum LogLevel {
        #[js = "error"]
        Error,
        #[js = "warn"]
        Warn,
        #[js = "info"]
        Info,
        #[js = "debug"]
        Debug,
        #[js = "trace"]
        Trace,
    }
}

impl From<Level> for LogLevel {
    fn from(l: Level) -> Self {
        match l {
            Level::Error => LogLevel::Error,
            Level::Warn => LogLevel::Warn,
            Level::Info => LogLevel::Info,
            Level::Debug => LogLevel::Debug,
            Level::Trace => LogLevel::Trace,
        }
    }
}

crate::report::report! {
    /// A line of the engine's log.
    #[js = "EngineLogLine"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct LogLine {
        /// How serious it is.
        pub level: LogLevel,
        /// Where it was written: the Rust module (`tributary_engine::runtime::net`).
        pub target: String,
        /// What happened.
        pub message: String,
    }
}

/// A line in the queue: fixed size, filled in place.
struct Slot {
    level: Level,
    target: Bytes<TARGET_BYTES>,
    message: Bytes<MESSAGE_BYTES>,
}

/// Text written into a fixed array, cut at a character boundary when full.
struct Bytes<const N: usize> {
    buf: [u8; N],
    len: usize,
    cut: bool,
}

impl<const N: usize> Bytes<N> {
    const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
            cut: false,
        }
    }

    fn text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.buf[..self.len]).into_owned();
        if self.cut {
            s.push_str(CUT);
        }
        s
    }
}

impl<const N: usize> Write for Bytes<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.cut {
            return Ok(());
        }
        let room = N - self.len;
        let mut take = s.len().min(room);
        if take < s.len() {
            // Leave room for the cut mark, and end on a whole character.
            take = take.min(room.saturating_sub(CUT.len()));
            while !s.is_char_boundary(take) {
                take -= 1;
            }
            self.cut = true;
        }
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

struct Queue {
    tx: SyncSender<Slot>,
    /// Only the host's thread takes lines (`try_recv`): no sender ever waits for it.
    rx: Mutex<Receiver<Slot>>,
}

static QUEUE: OnceLock<Queue> = OnceLock::new();
static DROPPED: AtomicU64 = AtomicU64::new(0);

struct QueueLogger;

static LOGGER: QueueLogger = QueueLogger;

impl Log for QueueLogger {
    fn enabled(&self, m: &Metadata<'_>) -> bool {
        // The engine's own crates down to info; other crates' (str0m ...) warnings and errors.
        let ours = m.target().starts_with("tributary");
        m.level() <= if ours { Level::Info } else { Level::Warn }
    }

    fn log(&self, record: &Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let Some(queue) = QUEUE.get() else {
            return;
        };
        let mut slot = Slot {
            level: record.level(),
            target: Bytes::new(),
            message: Bytes::new(),
        };
        let _ = slot.target.write_str(record.target());
        let _ = slot.message.write_fmt(*record.args());
        // sync_channel's `try_send` takes a free slot of its preallocated ring (a compare and
        // swap) and wakes no one: the host polls with `try_recv`, so no receiver is registered
        // to wake. A full queue drops the line.
        if queue.tx.try_send(slot).is_err() {
            DROPPED.fetch_add(1, Relaxed);
        }
    }

    fn flush(&self) {}
}

/// Makes the engine's log go to the queue. Idempotent; false if another logger was installed
/// first (then the engine's lines go there).
pub fn install() -> bool {
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::sync_channel(QUEUE_LINES);
        Queue {
            tx,
            rx: Mutex::new(rx),
        }
    });
    match log::set_logger(&LOGGER) {
        Ok(()) => {
            log::set_max_level(LevelFilter::Info);
            true
        }
        // Set before: by us (another engine) or by someone else.
        Err(_) => std::ptr::addr_eq(log::logger(), &LOGGER as &dyn Log),
    }
}

/// Takes up to `max` lines, oldest first (on the host's thread; allocates).
pub fn drain(max: usize) -> Vec<LogLine> {
    let Some(queue) = QUEUE.get() else {
        return Vec::new();
    };
    let rx = queue.rx.lock().unwrap_or_else(|e| e.into_inner());
    rx.try_iter()
        .take(max)
        .map(|s| LogLine {
            level: s.level.into(),
            target: s.target.text(),
            message: s.message.text(),
        })
        .collect()
}

/// Lines dropped because the queue was full, since the process started.
pub fn dropped() -> u64 {
    DROPPED.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_alloc;

    /// The tests that drain or fill the queue run one at a time.
    static SERIAL: Mutex<()> = Mutex::new(());
    /// Our lines among whatever other tests logged meanwhile.
    fn ours(marker: &str) -> Vec<LogLine> {
        let mut found = Vec::new();
        loop {
            let lines = drain(QUEUE_LINES);
            if lines.is_empty() {
                return found;
            }
            found.extend(lines.into_iter().filter(|l| l.message.contains(marker)));
        }
    }

    #[test]
    fn a_line_reaches_the_host_without_allocating() {
        let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert!(install());
        let _ = ours("");
        let (name, rate) = ("PC", 48_000);
        let before = test_alloc::on_this_thread();
        log::warn!("source '{name}' now sends {rate} Hz [alloc-test]");
        assert_eq!(test_alloc::on_this_thread(), before, "logging allocated");
        let lines = ours("[alloc-test]");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0].level, LogLevel::Warn);
        assert_eq!(
            lines[0].message,
            "source 'PC' now sends 48000 Hz [alloc-test]"
        );
        assert_eq!(lines[0].target, module_path!());
    }

    #[test]
    fn a_full_queue_drops_and_counts_instead_of_waiting() {
        let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert!(install());
        let _ = ours("");
        let before = dropped();
        for i in 0..QUEUE_LINES + 10 {
            log::info!("line {i} [full-test]");
        }
        assert!(dropped() >= before + 10, "{} -> {}", before, dropped());
        let kept = ours("[full-test]");
        assert!(!kept.is_empty() && kept.len() <= QUEUE_LINES);
        assert_eq!(kept[0].message, "line 0 [full-test]", "the oldest are kept");
    }

    #[test]
    fn a_long_message_is_cut_on_a_character() {
        let mut b = Bytes::<16>::new();
        write!(b, "{}", "é".repeat(20)).unwrap();
        let text = b.text();
        assert!(text.ends_with(CUT), "{text}");
        assert!(text.len() <= 16 + CUT.len());
        assert!(text.trim_end_matches(CUT).chars().all(|c| c == 'é'));
        let mut short = Bytes::<16>::new();
        write!(short, "ok {}", 1).unwrap();
        assert_eq!(short.text(), "ok 1");
    }

    #[test]
    fn other_crates_only_warn() {
        let m = |target, level| Metadata::builder().target(target).level(level).build();
        assert!(LOGGER.enabled(&m("tributary_engine::x", Level::Info)));
        assert!(!LOGGER.enabled(&m("tributary_engine::x", Level::Debug)));
        assert!(!LOGGER.enabled(&m("str0m::ice", Level::Info)));
        assert!(LOGGER.enabled(&m("str0m::ice", Level::Warn)));
    }
}
