//! The control side of a running engine (the public [`crate::Engine`] supervises it): it
//! binds the receivers, starts the engine thread ([`crate::runtime::worker`]), turns each
//! desired state into a plan ([`crate::runtime::plan`]) and sends it, reads the counters, and
//! stops everything.

use crate::desired::{ConfigError, DesiredState};
use crate::options::EngineOptions;
use crate::runtime::fault::Message;
use crate::runtime::levels::{LevelReader, Levels};
use crate::runtime::net::{self, Datagram, Receiver};
use crate::runtime::plan::{Planner, Retired};
use crate::runtime::stats::{
    BoundPorts, EngineCounters, EngineStats, PathStats, SinkStats, SourceStats,
};
use crate::runtime::worker::{engine_thread, Command, Worker};
use crate::sink::SinkCounters;
use crate::source::counters::unpack_format;
use crate::source::glitch_log::GlitchLog;
use crate::source::memory::MemoryShared;
use crate::source::sender_lock::describe_sender;
use crate::source::slot::describe_mismatch;
use crate::source::unknown::{self, Unknown, UnknownSender};
use crate::wire::PortKind;
use std::collections::HashMap;
use std::io;
use std::net::UdpSocket;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Datagrams queued between the receivers and the engine thread.
const QUEUE_SLOTS: usize = 2048;

/// A running engine's control side. Dropping it stops it.
pub(crate) struct Control {
    /// What the engine thread retired, freed here (see [`Retired`]).
    retired: mpsc::Receiver<Retired>,
    commands: mpsc::Sender<Command>,
    thread: Option<JoinHandle<()>>,
    queue: mpsc::SyncSender<Datagram>,
    receivers: Vec<Receiver>,
    /// The RTP ports bound at start (`options.rtp_ports`): open for the engine's life.
    fixed_rtp: Vec<u16>,
    options: EngineOptions,
    ports: BoundPorts,
    planner: Planner,
    unknown: Arc<Mutex<Vec<Unknown>>>,
    counters: Arc<EngineCounters>,
    started: Instant,
    /// Where the engine's threads report faults (the supervisor).
    faults: mpsc::Sender<Message>,
    levels: LevelReader,
    /// What was last logged about each source's glitches (the log line is made here, on the
    /// supervisor's thread, never on the engine thread).
    glitch_logs: HashMap<String, GlitchLog>,
}

mod rtp_ports;

impl Control {
    /// Binds every receiver and starts the engine thread. Fails (with the port in the message)
    /// if a socket cannot be bound. Faults of its threads go to `faults`.
    pub fn start(options: EngineOptions, faults: mpsc::Sender<Message>) -> io::Result<Control> {
        let (queue, data_rx) = mpsc::sync_channel::<Datagram>(QUEUE_SLOTS);
        let counters = Arc::new(EngineCounters::default());
        let mut receivers = Vec::new();
        let mut ports = BoundPorts::default();
        let open = |kind: PortKind, port: u16, receivers: &mut Vec<Receiver>| -> io::Result<u16> {
            let r = net::spawn_receiver(
                kind,
                options.bind,
                port,
                &options.multicast_groups,
                queue.clone(),
                counters.clone(),
                faults.clone(),
            )
            .map_err(|e| {
                let hint = if e.kind() == io::ErrorKind::AddrInUse {
                    "; another program (another Tributary?) is listening there"
                } else {
                    ""
                };
                io::Error::new(
                    e.kind(),
                    format!("cannot listen on UDP port {port} ({kind:?}): {e}{hint}"),
                )
            })?;
            let bound = r.port;
            receivers.push(r);
            Ok(bound)
        };
        for &p in &options.scream_ports {
            ports
                .scream
                .push(open(PortKind::Scream, p, &mut receivers)?);
        }
        if let Some(p) = options.tagged_port {
            ports.tagged = Some(open(PortKind::TaggedScream, p, &mut receivers)?);
        }
        for &p in &options.rtp_ports {
            let bound = open(PortKind::Rtp, p, &mut receivers)?;
            ports.rtp.push(bound);
            if let Err(e) = open(PortKind::Rtcp, bound.wrapping_add(1), &mut receivers) {
                log::warn!("no RTCP for RTP port {bound}: {e}");
            }
        }
        let socket = UdpSocket::bind(("0.0.0.0", 0))?;
        socket.set_multicast_ttl_v4(options.multicast_ttl)?;
        socket.set_nonblocking(true)?;
        let (commands, command_rx) = mpsc::channel();
        let unknown = Arc::new(Mutex::new(Vec::new()));
        let (retired_tx, retired) = mpsc::channel();
        let worker = Worker::new(
            retired_tx,
            socket,
            counters.clone(),
            unknown.clone(),
            options.default_rtp_format,
        );
        let engine_faults = faults.clone();
        let thread = std::thread::Builder::new()
            .name("trib-engine".into())
            .spawn(move || engine_thread(worker, data_rx, command_rx, engine_faults))?;
        Ok(Control {
            retired,
            commands,
            thread: Some(thread),
            queue,
            receivers,
            fixed_rtp: ports.rtp.clone(),
            planner: Planner::new(options.jitter),
            options,
            ports,
            unknown,
            counters,
            started: Instant::now(),
            faults,
            levels: LevelReader::default(),
            glitch_logs: HashMap::new(),
        })
    }

    /// The engine thread lost its graph (a fault): the next [`Control::apply`] builds every
    /// sink, tap and path anew, keeping their counters.
    pub fn lost_graph(&mut self) {
        self.planner.lost_graph();
    }

    /// Sends the engine thread a command (false when it has stopped).
    #[cfg(feature = "fault-injection")]
    pub fn command(&self, command: Command) -> bool {
        self.commands.send(command).is_ok()
    }

    /// The ports actually bound.
    pub fn ports(&self) -> &BoundPorts {
        &self.ports
    }

    /// Makes the running graph match `state`. Unchanged sinks and paths keep playing; changed
    /// volume, EQ and delay ramp; sinks whose format or destination changed are rebuilt on the
    /// same tick phase.
    ///
    /// Sinks the engine cannot play (a field out of bounds, `channels` not matching the layout,
    /// 32-bit RTP) are left out and returned, one error naming the field per sink; everything
    /// else plays. `Err` only when the engine has stopped.
    pub fn apply(&mut self, state: DesiredState) -> Result<Vec<ConfigError>, ConfigError> {
        self.free_retired();
        let (state, problems) = state.playable();
        let closed_or_refused = self.open_rtp_ports(&state);
        let (plan, mut problems, applied) = self.planner.plan(state, problems);
        problems.extend(closed_or_refused);
        self.commands
            .send(Command::Apply(Box::new(plan)))
            .map_err(|_| ConfigError("the engine has stopped".into()))?;
        self.planner.commit(applied);
        Ok(problems)
    }

    /// A snapshot of every counter.
    /// Registers the in-process source `id` (the next plan plays it where a path names it);
    /// false when `id` is one already.
    pub fn add_memory_source(&mut self, id: &str, ring: Arc<MemoryShared>) -> bool {
        let memory = &mut self.planner.memory;
        !memory.contains_key(id) && memory.insert(id.to_owned(), ring).is_none()
    }

    /// Forgets the in-process source `id` (the next plan drops it); false when unknown.
    pub fn remove_memory_source(&mut self, id: &str) -> bool {
        self.planner.memory.remove(id).is_some()
    }

    /// The counters (and listening tap) of the applied sink `id`.
    pub fn sink_counters(&self, id: &str) -> Option<Arc<SinkCounters>> {
        self.planner.sink_counter(id)
    }

    /// Logs, for each source, what its readers did that a listener could hear since the last
    /// line (at most one line per source every [`crate::source::glitch_log::EVERY_S`]).
    pub fn log_glitches(&mut self) {
        let now_s = self.started.elapsed().as_secs_f64();
        let sources = &self.planner.applied.source_counters;
        self.glitch_logs.retain(|id, _| sources.contains_key(id));
        for (id, (name, c)) in sources {
            if !self.glitch_logs.contains_key(id) {
                self.glitch_logs.insert(id.clone(), GlitchLog::default());
            }
            let log = self.glitch_logs.get_mut(id).expect("just inserted");
            if let Some(line) = log.line(name, c, now_s) {
                log::warn!("{line}");
            }
        }
    }

    pub fn stats(&self) -> EngineStats {
        self.free_retired();
        let sources = self
            .planner
            .applied
            .source_counters
            .iter()
            .map(|(id, (name, c))| SourceStats {
                id: id.clone(),
                name: name.clone(),
                packets: c.packets.load(Relaxed),
                bytes: c.bytes.load(Relaxed),
                lost: c.lost.load(Relaxed),
                late: c.late.load(Relaxed),
                reordered: c.reordered.load(Relaxed),
                duplicates: c.duplicates.load(Relaxed),
                malformed: c.malformed.load(Relaxed),
                rtcp_packets: c.rtcp_packets.load(Relaxed),
                competing_packets: c.competing.load(Relaxed),
                competing_sender: describe_sender(c.competing_sender.load(Relaxed)),
                sender_changes: c.sender_changes.load(Relaxed),
                jitter_ms: c.jitter_us.load(Relaxed) as f64 / 1000.0,
                buffer_ms: c.buffer_us.load(Relaxed) as f64 / 1000.0,
                drift_ppm: c.drift_ppb.load(Relaxed) as f64 / 1000.0,
                format_problem: describe_mismatch(c.format_mismatch.load(Relaxed)),
                correction_ppm: c.applied_ppb.load(Relaxed) as f64 / 1000.0,
                underruns: c.underruns.load(Relaxed),
                silence_ms: c.silence_us.load(Relaxed) as f64 / 1000.0,
                concealed: c.concealed.load(Relaxed),
                concealed_ms: c.concealed_us.load(Relaxed) as f64 / 1000.0,
                skips: c.skips.load(Relaxed),
                skipped_ms: c.skipped_us.load(Relaxed) as f64 / 1000.0,
                repeats: c.repeats.load(Relaxed),
                repeated_ms: c.repeated_us.load(Relaxed) as f64 / 1000.0,
                format: unpack_format(c.format.load(Relaxed)).map(|f| f.describe()),
            })
            .collect::<Vec<_>>();
        let mut sources = sources;
        sources.sort_by(|a, b| a.name.cmp(&b.name));
        let sinks = self
            .planner
            .applied
            .sink_counters
            .iter()
            .map(|(id, name, c)| SinkStats {
                id: id.clone(),
                name: name.clone(),
                packets: c.packets.load(Relaxed),
                bytes: c.bytes.load(Relaxed),
                underruns: c.underruns.load(Relaxed),
                silence_ms: c.silence_us.load(Relaxed) as f64 / 1000.0,
                concealed: c.concealed.load(Relaxed),
                concealed_ms: c.concealed_us.load(Relaxed) as f64 / 1000.0,
                send_errors: c.send_errors.load(Relaxed),
                queue_bytes: c.queue_bytes.load(Relaxed),
                max_late_ms: c.max_late_us.swap(0, Relaxed) as f64 / 1000.0,
            })
            .collect();
        let paths = self
            .planner
            .applied
            .path_counters
            .iter()
            .map(|e| PathStats {
                source_id: e.source_id.clone(),
                sink_id: e.sink_id.clone(),
                underruns: e.counters.underruns.load(Relaxed),
                silence_ms: e.counters.silence_us.load(Relaxed) as f64 / 1000.0,
                concealed: e.counters.concealed.load(Relaxed),
                concealed_ms: e.counters.concealed_us.load(Relaxed) as f64 / 1000.0,
            })
            .collect();
        EngineStats {
            uptime_s: self.started.elapsed().as_secs_f64(),
            cpu_s: self.counters.cpu_ns.load(Relaxed) as f64 / 1e9,
            queue_overflows: self.counters.queue_overflows.load(Relaxed),
            unknown_packets: self.counters.unknown_packets.load(Relaxed),
            malformed_unknown: self.counters.malformed_unknown.load(Relaxed),
            log_dropped: crate::logging::dropped(),
            sources,
            sinks,
            paths,
        }
    }

    /// The levels of the sinks in `ids` (all when empty); reading them keeps them measured.
    pub fn levels(&mut self, ids: &[String]) -> Vec<Levels> {
        let sinks = self.planner.applied.sink_counters.iter();
        let meters = sinks.map(|(id, name, c)| (id.as_str(), name.as_str(), &c.meter));
        self.levels.read(meters, ids)
    }

    /// The levels of the sources in `ids` (all when empty), by id, as their taps render them
    /// into the graph; reading them keeps them measured. The engine knows only the sources
    /// some path plays: others are not reported.
    pub fn source_levels(&mut self, ids: &[String]) -> Vec<Levels> {
        let mut meters: Vec<_> = (self.planner.applied.source_counters.iter())
            .map(|(id, (name, c))| (id.as_str(), name.as_str(), &c.meter))
            .collect();
        meters.sort_unstable_by_key(|m| m.0);
        self.levels.read(meters, ids)
    }

    /// Senders no source matches and heard in the last minute, most recent first.
    pub fn unknown_senders(&self) -> Vec<UnknownSender> {
        unknown::report(&self.unknown)
    }

    /// Frees what the engine thread took out of the graph on earlier applies.
    fn free_retired(&self) {
        while let Ok(retired) = self.retired.try_recv() {
            drop(retired);
        }
    }

    /// Stops every thread and closes every socket. Idempotent.
    pub fn stop(&mut self) {
        let _ = self.commands.send(Command::Stop);
        self.receivers.clear();
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                log::warn!("the engine thread ended with a panic");
            }
        }
    }
}

impl Drop for Control {
    fn drop(&mut self) {
        self.stop();
    }
}
