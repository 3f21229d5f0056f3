//! The runtime: receiver threads, one engine thread that ingests packets and ticks every sink's
//! mixer on the router's steady clock, and the control handle ([`Control`]) that starts it,
//! applies desired states, reads stats and stops it.
//!
//! `apply` diffs the new state against the last one on the caller's thread, builds everything
//! new there (allocation happens off the real-time thread, including room for the engine
//! thread's new tables), and sends a plan; the engine thread swaps it in between ticks.
//! Unchanged sinks, taps and paths keep their state, so they play on without a gap; changed
//! levels ramp inside the DSP stages; a changed delay fades over to the tap of the new delay.
//!
//! The graph: sources (one buffer each), taps (one drift-corrected reader per source, sink
//! rate and delay, shared by every path that needs it; see [`crate::tap`]), sinks, and per
//! sink its paths (channel matrix, EQ, volume, normalisation).

use crate::config::{ConfigError, DesiredState, EngineOptions, PathSpec, SinkSpec};
use crate::engine_thread::engine_thread;
use crate::fault::Message;
use crate::ingest::{Core, Retired};
use crate::net::{self, Datagram, PortKind, Receiver};
use crate::path::PathRt;
use crate::sink::{layout_for, SinkRt};
use crate::source::SourceSlot;
use crate::stats::{unpack_format, EngineCounters, SinkCounters, SourceCounters};
use crate::tap::{Tap, TapKey};
use crate::timeline::Timeline;
use std::collections::{HashMap, HashSet};
use std::io;
use std::net::UdpSocket;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tributary_dsp::eq::{Design, Designer};

/// Datagrams queued between the receivers and the engine thread.
const QUEUE_SLOTS: usize = 2048;
/// Largest source buffer the engine thread copies into a bigger one when a longer delay needs
/// it (16 MB: about 3 ms); larger buffers are rebuilt (that source restarts with a prebuffer).
const MAX_GROW_COPY_BYTES: f64 = 16e6;

/// What the engine thread is told.
pub(crate) enum Command {
    Apply(Box<Plan>),
    Stop,
    /// Test builds only: make the engine thread fail (see [`crate::FaultInjection`]).
    #[cfg(feature = "fault-injection")]
    Inject(crate::fault_injection::FaultInjection),
}

/// A sink in a plan: kept (with its new path list and room for it) or built anew.
pub(crate) enum SinkPlan {
    Keep {
        id: String,
        paths: Vec<PathPlan>,
        room: Vec<PathRt>,
    },
    New(Box<SinkRt>),
}

/// A path in a kept sink: kept (levels updated, with its new equalizer design when the
/// equalizer changed) or built anew.
// The design travels inline (a few hundred bytes once per apply) so the engine thread frees no
// box of it.
#[allow(clippy::large_enum_variant)]
pub(crate) enum PathPlan {
    Keep(PathSpec, Option<Design>),
    New(Box<PathRt>),
}

/// The whole new graph, in order.
pub(crate) struct Plan {
    /// Source ids in table order; ids not in `new_sources` are taken from the current table.
    pub sources: Vec<String>,
    pub new_sources: Vec<SourceSlot>,
    /// Bigger buffers for kept sources a longer delay needs: (id, seconds, ring to take over).
    pub grown: Vec<(String, f64, Timeline)>,
    /// Tap keys in table order; keys not in `new_taps` are taken from the current table.
    pub taps: Vec<TapKey>,
    pub new_taps: Vec<Tap>,
    pub sinks: Vec<SinkPlan>,
    pub room: Room,
}

/// Empty tables with room for the new graph, and room for what it retires: the engine thread
/// fills them without allocating.
pub(crate) struct Room {
    pub sources: Vec<SourceSlot>,
    pub taps: Vec<Tap>,
    pub sinks: Vec<SinkRt>,
    pub retired: Retired,
}

/// Per-source statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceStats {
    pub id: String,
    pub name: String,
    pub packets: u64,
    pub bytes: u64,
    pub lost: u64,
    pub late: u64,
    pub reordered: u64,
    pub duplicates: u64,
    pub malformed: u64,
    pub rtcp_packets: u64,
    pub jitter_ms: f64,
    pub buffer_ms: f64,
    pub drift_ppm: f64,
    /// For example `rtp L16 48000 Hz 2 ch`; `None` before the first packet.
    pub format: Option<String>,
}

/// Per-sink statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct SinkStats {
    pub id: String,
    pub name: String,
    pub packets: u64,
    pub bytes: u64,
    pub underruns: u64,
    pub send_errors: u64,
    pub queue_bytes: u64,
    /// Largest lateness of a packet against its deadline since the previous stats call.
    pub max_late_ms: f64,
}

/// A snapshot of the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineStats {
    pub uptime_s: f64,
    /// CPU time of the engine's threads since start.
    pub cpu_s: f64,
    pub queue_overflows: u64,
    pub unknown_packets: u64,
    pub malformed_unknown: u64,
    pub sources: Vec<SourceStats>,
    pub sinks: Vec<SinkStats>,
}

/// A sender no source matches (for the dashboard to offer as a new source).
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownSender {
    /// `scream`, `scream-tagged` or `rtp`.
    pub kind: &'static str,
    pub address: String,
    /// Local port it arrived on.
    pub port: u16,
    pub tag: Option<String>,
    pub packets: u64,
    pub format: Option<String>,
    pub last_seen_ms_ago: f64,
}

/// The ports the engine listens on (useful when options asked for port 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundPorts {
    pub scream: Vec<u16>,
    pub tagged: Option<u16>,
    pub rtp: Vec<u16>,
}

/// A running engine's control side (the public [`crate::Engine`] supervises it). Dropping it
/// stops it.
pub(crate) struct Control {
    /// What the engine thread retired, freed here (see [`Retired`]).
    retired: mpsc::Receiver<Retired>,
    commands: mpsc::Sender<Command>,
    thread: Option<JoinHandle<()>>,
    queue: mpsc::SyncSender<Datagram>,
    receivers: Vec<Receiver>,
    options: EngineOptions,
    ports: BoundPorts,
    applied: DesiredState,
    source_counters: HashMap<String, (String, Arc<SourceCounters>)>,
    sink_counters: Vec<(String, String, Arc<SinkCounters>)>,
    /// Capacity (s) of each live source's buffer, to know when a delay needs a bigger one.
    source_capacity: HashMap<String, f64>,
    /// The taps the engine thread holds, in table order.
    tap_keys: Vec<TapKey>,
    unknown: Arc<Mutex<Vec<crate::ingest::Unknown>>>,
    counters: Arc<EngineCounters>,
    started: Instant,
    /// Where the engine's threads report faults (the supervisor).
    faults: mpsc::Sender<Message>,
    /// The next apply builds every sink, tap and path anew (the engine thread lost its graph);
    /// counters are kept.
    fresh_graph: bool,
}

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
                crate::log::warn(&format!("no RTCP for RTP port {bound}: {e}"));
            }
        }
        let socket = UdpSocket::bind(("0.0.0.0", 0))?;
        socket.set_multicast_ttl_v4(options.multicast_ttl)?;
        socket.set_nonblocking(true)?;
        let (commands, command_rx) = mpsc::channel();
        let unknown = Arc::new(Mutex::new(Vec::new()));
        let (retired_tx, retired) = mpsc::channel();
        let core = Core::new(
            retired_tx,
            socket,
            counters.clone(),
            unknown.clone(),
            options.default_rtp_format,
        );
        let engine_faults = faults.clone();
        let thread = std::thread::Builder::new()
            .name("trib-engine".into())
            .spawn(move || engine_thread(core, data_rx, command_rx, engine_faults))?;
        Ok(Control {
            retired,
            commands,
            thread: Some(thread),
            queue,
            receivers,
            options,
            ports,
            applied: DesiredState::default(),
            source_counters: HashMap::new(),
            sink_counters: Vec::new(),
            source_capacity: HashMap::new(),
            tap_keys: Vec::new(),
            unknown,
            counters,
            started: Instant::now(),
            faults,
            fresh_graph: false,
        })
    }

    /// The engine thread lost its graph (a fault): the next [`Control::apply`] builds every
    /// sink, tap and path anew, keeping their counters.
    pub fn lost_graph(&mut self) {
        self.fresh_graph = true;
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
        self.open_rtp_ports(&state);
        if self.fresh_graph {
            // Nothing of the old graph exists on the engine thread: build it all again (the
            // sinks too, see `plan_sink`); counters of unchanged sources and sinks are kept.
            self.source_capacity.clear();
            self.tap_keys.clear();
        }
        let start = Instant::now() + Duration::from_millis(5);
        // Sources: every distinct source id in the paths, with its longest delay.
        let mut order: Vec<String> = Vec::new();
        let mut specs: HashMap<&str, (&PathSpec, f64)> = HashMap::new();
        for sink in &state.sinks {
            for p in &sink.paths {
                let entry = specs.entry(&p.source_id).or_insert_with(|| {
                    order.push(p.source_id.clone());
                    (p, 0.0)
                });
                entry.1 = entry.1.max(p.delay_ms);
            }
        }
        let old_specs: HashMap<&str, &PathSpec> = self
            .applied
            .sinks
            .iter()
            .flat_map(|s| &s.paths)
            .map(|p| (p.source_id.as_str(), p))
            .collect();
        let mut new_sources = Vec::new();
        let mut grown = Vec::new();
        let mut rebuilt: HashSet<String> = HashSet::new();
        let mut capacity = HashMap::new();
        for id in &order {
            let (spec, max_delay) = specs[id.as_str()];
            let needed = SourceSlot::capacity_for(max_delay);
            let same = old_specs
                .get(id.as_str())
                .is_some_and(|old| same_matching(old, spec));
            if let (true, Some(&cap)) = (same, self.source_capacity.get(id)) {
                if needed <= cap {
                    capacity.insert(id.clone(), cap);
                    continue;
                }
                // A longer delay than the buffer holds: a bigger one takes over what it holds,
                // so its paths play on.
                let (rate, channels) = self.source_format(spec);
                let held = cap * f64::from(rate) * channels as f64 * 4.0;
                if held <= MAX_GROW_COPY_BYTES {
                    let frames = (needed * f64::from(rate)).ceil() as usize;
                    grown.push((id.clone(), needed, Timeline::new(channels, frames)));
                    capacity.insert(id.clone(), needed);
                    continue;
                }
            }
            let counters = match self.source_counters.get(id) {
                Some((_, c)) if same => c.clone(),
                _ => Arc::new(SourceCounters::default()),
            };
            let slot = SourceSlot::new(spec, max_delay, self.options.jitter, counters);
            capacity.insert(id.clone(), slot.capacity_s);
            rebuilt.insert(id.clone());
            new_sources.push(slot);
        }
        let source_counters: HashMap<String, (String, Arc<SourceCounters>)> = order
            .iter()
            .map(|id| {
                let spec = specs[id.as_str()].0;
                let counters = new_sources
                    .iter()
                    .find(|s| &s.id == id)
                    .map(|s| s.counters.clone())
                    .or_else(|| self.source_counters.get(id).map(|(_, c)| c.clone()))
                    .unwrap_or_default();
                (id.clone(), (spec.source_name.clone(), counters))
            })
            .collect();
        // Sinks.
        let mut sinks = Vec::new();
        let mut sink_counters = Vec::new();
        let mut problems = problems;
        let mut failed = HashSet::new();
        for (k, sink) in state.sinks.iter().enumerate() {
            match self.plan_sink(k, sink, start, &rebuilt) {
                Ok((plan, counters)) => {
                    sink_counters.push((sink.id.clone(), sink.name.clone(), counters));
                    sinks.push(plan);
                }
                Err(e) => {
                    problems.push(e);
                    failed.insert(sink.id.clone());
                }
            }
        }
        let mut state = state;
        state.sinks.retain(|s| !failed.contains(&s.id));
        let (tap_keys, new_taps) = self.plan_taps(&state, &rebuilt);
        let old_paths = self.applied.sinks.iter().map(|s| s.paths.len()).sum();
        let room = Room {
            sources: Vec::with_capacity(order.len()),
            taps: Vec::with_capacity(tap_keys.len()),
            sinks: Vec::with_capacity(sinks.len()),
            retired: Retired {
                paths: Vec::with_capacity(old_paths),
                timelines: Vec::with_capacity(grown.len()),
                ..Retired::default()
            },
        };
        let plan = Plan {
            sources: order,
            new_sources,
            grown,
            taps: tap_keys.clone(),
            new_taps,
            sinks,
            room,
        };
        self.commands
            .send(Command::Apply(Box::new(plan)))
            .map_err(|_| ConfigError("the engine has stopped".into()))?;
        self.source_counters = source_counters;
        self.sink_counters = sink_counters;
        self.source_capacity = capacity;
        self.tap_keys = tap_keys;
        self.applied = state;
        self.fresh_graph = false;
        Ok(problems)
    }

    /// The taps `state` needs: one per (source, sink rate, delay) of its paths, plus the tap a
    /// path whose delay changed fades out of. Taps the engine holds are kept (unless their
    /// source is rebuilt); the others are built here.
    fn plan_taps(
        &self,
        state: &DesiredState,
        rebuilt: &HashSet<String>,
    ) -> (Vec<TapKey>, Vec<Tap>) {
        let mut keys: Vec<TapKey> = Vec::new();
        let mut add = |source_id: &str, sink_rate: u32, delay_ms: f64| {
            if !keys.iter().any(|k| k.is(source_id, sink_rate, delay_ms)) {
                keys.push(TapKey {
                    source_id: source_id.to_owned(),
                    sink_rate,
                    delay_ms,
                });
            }
        };
        for sink in &state.sinks {
            let old = self
                .applied
                .sinks
                .iter()
                .find(|o| o.id == sink.id && same_output(o, sink));
            for p in &sink.paths {
                add(&p.source_id, sink.sample_rate, p.delay_ms);
                let before = old.and_then(|o| o.paths.iter().find(|q| q.source_id == p.source_id));
                if let Some(q) = before.filter(|q| q.delay_ms != p.delay_ms) {
                    add(&q.source_id, sink.sample_rate, q.delay_ms);
                }
            }
        }
        let new_taps = keys
            .iter()
            .filter(|k| rebuilt.contains(&k.source_id) || !self.tap_keys.contains(k))
            .map(|k| {
                let spec = state
                    .sinks
                    .iter()
                    .flat_map(|s| &s.paths)
                    .find(|p| p.source_id == k.source_id);
                let (rate, channels) = spec.map_or((48_000, 2), |p| self.source_format(p));
                Tap::new(k.clone(), rate, channels)
            })
            .collect();
        (keys, new_taps)
    }

    /// The (rate, channels) a path's source sends: as last received, else as configured (RTP),
    /// else Scream's usual 48 kHz stereo. (A sender that changes format is followed on the
    /// engine thread.)
    fn source_format(&self, p: &PathSpec) -> (u32, usize) {
        let seen = self
            .source_counters
            .get(&p.source_id)
            .and_then(|(_, c)| unpack_format(c.format.load(Relaxed)));
        match (seen, &p.rtp) {
            (Some(f), _) => (f.sample_rate, usize::from(f.channels)),
            (None, Some(r)) => (r.format.sample_rate, usize::from(r.format.channels)),
            (None, None) => (48_000, 2),
        }
    }

    /// Keeps a sink whose output is unchanged (updating its paths) or builds it anew.
    fn plan_sink(
        &self,
        k: usize,
        sink: &SinkSpec,
        start: Instant,
        rebuilt: &HashSet<String>,
    ) -> Result<(SinkPlan, Arc<SinkCounters>), ConfigError> {
        let old = self.applied.sinks.iter().find(|s| s.id == sink.id);
        if let Some(old) = old.filter(|o| !self.fresh_graph && same_output(o, sink)) {
            let mut paths = Vec::new();
            for p in &sink.paths {
                let kept = old.paths.iter().find(|q| q.source_id == p.source_id);
                if let Some(q) = kept.filter(|_| !rebuilt.contains(&p.source_id)) {
                    // A changed equalizer is designed here, on the caller's thread; the engine
                    // thread only ramps to it.
                    let eq = (q.eq != p.eq).then(|| Designer::new(sink.sample_rate).design(&p.eq));
                    paths.push(PathPlan::Keep(p.clone(), eq));
                } else {
                    paths.push(PathPlan::New(Box::new(self.build_path(p, sink)?)));
                }
            }
            let counters = self.sink_counter(&sink.id).unwrap_or_default();
            return Ok((
                SinkPlan::Keep {
                    id: sink.id.clone(),
                    room: Vec::with_capacity(paths.len()),
                    paths,
                },
                counters,
            ));
        }
        let mut rt = SinkRt::new(sink, start, k as u64 ^ hash(&sink.id))
            .map_err(|e| ConfigError(format!("sinks[{k}]: {}", e.0)))?;
        if let Some(c) = self.sink_counter(&sink.id) {
            rt.counters = c;
        }
        for p in &sink.paths {
            rt.paths.push(self.build_path(p, sink)?);
        }
        let counters = rt.counters.clone();
        Ok((SinkPlan::New(Box::new(rt)), counters))
    }

    fn build_path(&self, p: &PathSpec, sink: &SinkSpec) -> Result<PathRt, ConfigError> {
        let (_, channels) = self.source_format(p);
        let max_frames = SinkRt::max_frames_for(sink);
        PathRt::new(p, layout_for(channels, 0), sink, max_frames)
            .map_err(|e| ConfigError(format!("path {} -> {}: {e}", p.source_name, sink.name)))
    }

    fn sink_counter(&self, id: &str) -> Option<Arc<SinkCounters>> {
        self.sink_counters
            .iter()
            .find(|(i, _, _)| i == id)
            .map(|(_, _, c)| c.clone())
    }

    /// Opens receivers for RTP ports sources name that are not open yet.
    fn open_rtp_ports(&mut self, state: &DesiredState) {
        let wanted: HashSet<u16> = state
            .sinks
            .iter()
            .flat_map(|s| &s.paths)
            .filter_map(|p| p.rtp.as_ref().map(|r| r.port))
            .collect();
        for port in wanted {
            if self
                .receivers
                .iter()
                .any(|r| r.port == port && r.kind == PortKind::Rtp)
            {
                continue;
            }
            let groups: Vec<_> = self.options.multicast_groups.clone();
            let extra: Vec<std::net::Ipv4Addr> = state
                .sinks
                .iter()
                .flat_map(|s| &s.paths)
                .filter_map(|p| p.rtp.as_ref())
                .filter(|r| r.port == port)
                .filter_map(|r| match r.listen_ip {
                    Some(std::net::IpAddr::V4(a)) if a.is_multicast() => Some(a),
                    _ => None,
                })
                .collect();
            let all: Vec<_> = groups.into_iter().chain(extra).collect();
            for (kind, p) in [
                (PortKind::Rtp, port),
                (PortKind::Rtcp, port.wrapping_add(1)),
            ] {
                match net::spawn_receiver(
                    kind,
                    self.options.bind,
                    p,
                    &all,
                    self.queue.clone(),
                    self.counters.clone(),
                    self.faults.clone(),
                ) {
                    Ok(r) => {
                        if kind == PortKind::Rtp {
                            self.ports.rtp.push(r.port);
                        }
                        self.receivers.push(r);
                    }
                    Err(e) => {
                        crate::log::warn(&format!("cannot listen on UDP port {p} ({kind:?}): {e}"))
                    }
                }
            }
        }
    }

    /// A snapshot of every counter.
    pub fn stats(&self) -> EngineStats {
        self.free_retired();
        let sources = self
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
                jitter_ms: c.jitter_us.load(Relaxed) as f64 / 1000.0,
                buffer_ms: c.buffer_us.load(Relaxed) as f64 / 1000.0,
                drift_ppm: c.drift_ppb.load(Relaxed) as f64 / 1000.0,
                format: unpack_format(c.format.load(Relaxed)).map(|f| f.describe()),
            })
            .collect::<Vec<_>>();
        let mut sources = sources;
        sources.sort_by(|a, b| a.name.cmp(&b.name));
        let sinks = self
            .sink_counters
            .iter()
            .map(|(id, name, c)| SinkStats {
                id: id.clone(),
                name: name.clone(),
                packets: c.packets.load(Relaxed),
                bytes: c.bytes.load(Relaxed),
                underruns: c.underruns.load(Relaxed),
                send_errors: c.send_errors.load(Relaxed),
                queue_bytes: c.queue_bytes.load(Relaxed),
                max_late_ms: c.max_late_us.swap(0, Relaxed) as f64 / 1000.0,
            })
            .collect();
        EngineStats {
            uptime_s: self.started.elapsed().as_secs_f64(),
            cpu_s: self.counters.cpu_ns.load(Relaxed) as f64 / 1e9,
            queue_overflows: self.counters.queue_overflows.load(Relaxed),
            unknown_packets: self.counters.unknown_packets.load(Relaxed),
            malformed_unknown: self.counters.malformed_unknown.load(Relaxed),
            sources,
            sinks,
        }
    }

    /// Senders no source matches and heard in the last minute, most recent first.
    pub fn unknown_senders(&self) -> Vec<UnknownSender> {
        let now = Instant::now();
        let list = self.unknown.lock().map(|l| l.clone()).unwrap_or_default();
        let mut out: Vec<UnknownSender> = list
            .into_iter()
            .map(|u| UnknownSender {
                kind: match u.kind {
                    PortKind::TaggedScream => "scream-tagged",
                    PortKind::Rtp | PortKind::Rtcp => "rtp",
                    PortKind::Scream => "scream",
                },
                address: u.address.to_string(),
                port: u.port,
                tag: u.tag,
                packets: u.packets,
                format: unpack_format(u.format).map(|f| f.describe()),
                last_seen_ms_ago: now.saturating_duration_since(u.last_seen).as_secs_f64() * 1000.0,
            })
            .collect();
        out.retain(|u| u.last_seen_ms_ago < 60_000.0);
        out.sort_by(|a, b| a.last_seen_ms_ago.total_cmp(&b.last_seen_ms_ago));
        out
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
                crate::log::warn("the engine thread ended with a panic");
            }
        }
    }
}

impl Drop for Control {
    fn drop(&mut self) {
        self.stop();
    }
}

fn same_output(a: &SinkSpec, b: &SinkSpec) -> bool {
    a.ip == b.ip
        && a.port == b.port
        && a.protocol == b.protocol
        && a.sample_rate == b.sample_rate
        && a.bit_depth == b.bit_depth
        && a.channels == b.channels
        && a.layout == b.layout
        && a.normalize == b.normalize
}

/// Whether two paths' sources are matched to streams the same way.
fn same_matching(a: &PathSpec, b: &PathSpec) -> bool {
    a.ip == b.ip && a.tag == b.tag && a.rtp == b.rtp
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SinkProtocol;
    use std::net::{IpAddr, Ipv4Addr};
    use tributary_dsp::ChannelLayout;

    fn quiet_engine() -> Control {
        Control::start(
            EngineOptions {
                bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
                scream_ports: vec![],
                tagged_port: None,
                rtp_ports: vec![],
                ..EngineOptions::default()
            },
            mpsc::channel().0,
        )
        .unwrap()
    }

    fn path(source: usize, delay_ms: f64) -> PathSpec {
        PathSpec {
            ip: Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 10 + source as u8))),
            delay_ms,
            ..PathSpec::new(&format!("src{source}"))
        }
    }

    fn sink(id: usize, rate: u32, paths: Vec<PathSpec>) -> SinkSpec {
        SinkSpec {
            paths,
            ..SinkSpec::new(
                &format!("sink{id}"),
                SinkProtocol::Scream,
                rate,
                16,
                ChannelLayout::STEREO,
            )
        }
    }

    /// Every source on every sink; sink 3 at 44.1 kHz; `delayed` gives source 0 a delay on sink 1.
    fn all_to_all(delayed: f64) -> DesiredState {
        DesiredState {
            sinks: (0..4)
                .map(|j| {
                    let rate = if j == 3 { 44_100 } else { 48_000 };
                    let paths = (0..5)
                        .map(|i| path(i, if (i, j) == (0, 1) { delayed } else { 0.0 }))
                        .collect();
                    sink(j, rate, paths)
                })
                .collect(),
        }
    }

    #[test]
    fn paths_of_one_source_rate_and_delay_share_a_tap_and_unused_taps_retire() {
        let mut engine = quiet_engine();
        assert!(engine.apply(all_to_all(0.0)).unwrap().is_empty());
        // 20 paths, 5 sources at two sink rates: 10 readers.
        assert_eq!(engine.tap_keys.len(), 10);
        // A delay on one path: a tap of its own (source 0's undelayed one serves sinks 0, 2).
        engine.apply(all_to_all(250.0)).unwrap();
        assert_eq!(engine.tap_keys.len(), 11);
        assert!(engine.tap_keys.iter().any(|k| k.is("src0", 48_000, 250.0)));
        // A path alone on its tap changes delay: the tap it fades out of is kept for this
        // apply only.
        let alone = |delay_ms| DesiredState {
            sinks: vec![sink(0, 48_000, vec![path(0, delay_ms)])],
        };
        engine.apply(alone(0.0)).unwrap();
        assert_eq!(engine.tap_keys.len(), 1);
        engine.apply(alone(500.0)).unwrap();
        assert_eq!(engine.tap_keys.len(), 2);
        engine.apply(alone(500.0)).unwrap();
        assert_eq!(engine.tap_keys.len(), 1);
        assert!(engine.tap_keys[0].is("src0", 48_000, 500.0));
        engine.stop();
    }
}
