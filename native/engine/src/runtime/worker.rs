//! The engine thread: drains the receive queue (each datagram parsed, matched to a source and
//! buffered, see [`crate::runtime::ingest`]) and the rings of in-process sources
//! ([`crate::source::memory`]), ticks each sink when its deadline comes, swaps in
//! plans between ticks, and publishes stats. Under supervision ([`engine_thread`]): a panic is
//! reported, the graph dropped, and the loop starts again empty until the supervisor rebuilds
//! it.

use crate::graph::tap::Tap;
use crate::runtime::fault::{Culprit, Fault, Message};
use crate::runtime::lead::Lead;
use crate::runtime::net::Datagram;
use crate::runtime::plan::{PathPlan, Plan, Retired, SinkPlan};
use crate::runtime::scheduling;
use crate::runtime::stats::{add_thread_cpu, thread_cpu_ns, EngineCounters};
use crate::sink::Sink;
use crate::source::slot::SourceSlot;
use crate::source::unknown::{Unknown, UnknownSenders};
use crate::wire::rtp::RtpFormat;
use crate::work::{self, Work};
use std::net::UdpSocket;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod ticks;

const PUBLISH_EVERY: Duration = Duration::from_millis(100);

/// What the engine thread is told.
pub(crate) enum Command {
    Apply(Box<Plan>),
    Stop,
    /// Test builds only: make the engine thread fail (see [`crate::FaultInjection`]).
    #[cfg(feature = "fault-injection")]
    Inject(crate::runtime::fault_injection::FaultInjection),
}

/// State owned by the engine thread: the graph (sources, taps, sinks) and what ingest needs.
pub(crate) struct Worker {
    retired: mpsc::Sender<Retired>,
    pub(crate) sources: Vec<SourceSlot>,
    taps: Vec<Tap>,
    sinks: Vec<Sink>,
    socket: UdpSocket,
    pub(crate) counters: Arc<EngineCounters>,
    pub(crate) unknown: UnknownSenders,
    pub(crate) default_rtp: RtpFormat,
    /// The tag of the tagged Scream packet being handled (`ip/program`), written in place.
    pub(crate) tag: String,
    pub(crate) epoch: Instant,
    /// How far ahead of their deadlines sinks render (see [`crate::runtime::lead`]).
    lead: Lead,
    #[cfg(feature = "fault-injection")]
    pub(crate) injected: crate::runtime::fault_injection::Armed,
}

impl Worker {
    pub fn new(
        retired: mpsc::Sender<Retired>,
        socket: UdpSocket,
        counters: Arc<EngineCounters>,
        shared_unknown: Arc<Mutex<Vec<Unknown>>>,
        default_rtp: RtpFormat,
    ) -> Self {
        Self {
            retired,
            sources: Vec::new(),
            taps: Vec::new(),
            sinks: Vec::new(),
            socket,
            counters,
            unknown: UnknownSenders::new(shared_unknown),
            default_rtp,
            tag: String::with_capacity(128),
            epoch: Instant::now(),
            lead: Lead::default(),
            #[cfg(feature = "fault-injection")]
            injected: crate::runtime::fault_injection::Armed::default(),
        }
    }

    /// Runs until told to stop or the control handle is gone. A panic unwinds out of it (see
    /// [`engine_thread`]), which then calls [`Worker::discard_graph`] and runs it again.
    pub fn run(&mut self, data: &mpsc::Receiver<Datagram>, commands: &mpsc::Receiver<Command>) {
        set_timer_slack();
        scheduling::raise_current_thread(40);
        let mut cpu = thread_cpu_ns();
        let mut next_publish = Instant::now();
        loop {
            // Packets held for their deadlines go first: nothing else this wake-up does may
            // delay them.
            self.send_due(Instant::now());
            let working = Instant::now();
            loop {
                match commands.try_recv() {
                    Ok(Command::Apply(plan)) => self.apply(*plan),
                    #[cfg(feature = "fault-injection")]
                    Ok(Command::Inject(fault)) => self.injected.arm(fault),
                    Ok(Command::Stop) | Err(mpsc::TryRecvError::Disconnected) => {
                        add_thread_cpu(&self.counters.cpu_ns, cpu);
                        return;
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                }
            }
            // Everything that arrived goes into the buffers before any sink renders: after a
            // stall (of this thread or of the receivers) the queued packets are what the late
            // ticks need. Bounded: the queue holds at most QUEUE_SLOTS datagrams.
            loop {
                match data.try_recv() {
                    Ok(d) => self.ingest(&d),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            }
            #[cfg(feature = "fault-injection")]
            self.injected.engine_panic();
            let now = Instant::now();
            self.pull_memory(now);
            let next = self.tick_due(now);
            if now >= next_publish {
                next_publish = now + PUBLISH_EVERY;
                cpu = add_thread_cpu(&self.counters.cpu_ns, cpu);
                self.publish();
            }
            // This wake-up's work, from after its sends to before its sleep, sets the lead.
            self.lead.observe(working.elapsed());
            // Sleep until the next send or render: packets only matter to the next render, so
            // they wait in the queue (stamped on arrival by the receivers) instead of waking
            // this thread one by one; every sink due at the same time renders on one wake-up.
            let wait = next.saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
    }

    /// Moves what each in-process source's writer wrote and is due at `now` into its buffer
    /// (never waiting on the writer: the ring is lock-free).
    pub(crate) fn pull_memory(&mut self, now: Instant) {
        let now_s = now.duration_since(self.epoch).as_secs_f64();
        for (i, s) in self.sources.iter_mut().enumerate() {
            if s.memory.is_some() {
                work::working_on(Work::Source(i));
                s.pull_memory(now_s);
                work::working_on(Work::Idle);
            }
        }
    }

    /// Who a fault while working on `work` is charged to.
    pub fn culprit(&self, work: Work) -> Option<Culprit> {
        match work {
            Work::Source(i) => self.sources.get(i).map(|s| Culprit::Source {
                id: s.id.clone(),
                name: s.name.clone(),
            }),
            Work::Sink(i) => self.sinks.get(i).map(|s| Culprit::Sink {
                id: s.spec.id.clone(),
                name: s.spec.name.clone(),
            }),
            Work::Idle => None,
        }
    }

    /// Drops the whole graph after a fault (it may be half-updated): sources, taps and sinks
    /// go to the control thread to be freed; the thread then plays nothing until a plan
    /// brings a new graph.
    pub fn discard_graph(&mut self) {
        let retired = Retired {
            sources: std::mem::take(&mut self.sources),
            taps: std::mem::take(&mut self.taps),
            sinks: std::mem::take(&mut self.sinks),
            ..Retired::default()
        };
        let _ = self.retired.send(retired);
    }

    fn publish(&mut self) {
        for s in &mut self.sources {
            s.publish();
        }
        self.unknown.publish();
    }

    pub(crate) fn apply(&mut self, plan: Plan) {
        let Plan {
            sources,
            new_sources,
            grown,
            taps,
            new_taps,
            sinks,
            room,
        } = plan;
        let mut retired = room.retired;
        // Sources and taps in plan order, each kept or new; what is left over retires.
        let old_sources = std::mem::replace(&mut self.sources, room.sources);
        retired.sources = in_order(
            &sources,
            new_sources,
            old_sources,
            &mut self.sources,
            |s, id| &s.id == id,
        );
        for (id, capacity_s, mut bigger) in grown {
            if let Some(slot) = self.sources.iter_mut().find(|s| s.id == id) {
                if bigger.take_over(&slot.buffer.timeline) {
                    std::mem::swap(&mut slot.buffer.timeline, &mut bigger);
                    slot.capacity_s = capacity_s;
                }
            }
            retired.timelines.push(bigger);
        }
        let old_taps = std::mem::replace(&mut self.taps, room.taps);
        retired.taps = in_order(&taps, new_taps, old_taps, &mut self.taps, |t, key| {
            &t.key == key
        });
        let mut old_sinks = std::mem::replace(&mut self.sinks, room.sinks);
        for plan in sinks {
            match plan {
                SinkPlan::New(mut sink) => {
                    if let Some(old) = old_sinks.iter_mut().find(|s| s.spec.id == sink.spec.id) {
                        // Its held packet goes now (a little early), the new sink continuing
                        // after it.
                        old.send(Instant::now(), &self.socket);
                        sink.continue_from(old);
                    }
                    self.sinks.push(*sink);
                }
                SinkPlan::Keep { id, paths, room } => {
                    let Some(i) = old_sinks.iter().position(|s| s.spec.id == id) else {
                        continue;
                    };
                    let mut sink = old_sinks.swap_remove(i);
                    let mut old_paths = std::mem::replace(&mut sink.paths, room);
                    for p in paths {
                        match p {
                            PathPlan::New(path) => sink.paths.push(*path),
                            PathPlan::Keep(spec, eq) => {
                                if let Some(j) = old_paths
                                    .iter()
                                    .position(|q| q.spec.source_id == spec.source_id)
                                {
                                    let mut path = old_paths.swap_remove(j);
                                    path.update(spec, eq.as_ref());
                                    sink.paths.push(path);
                                }
                            }
                        }
                    }
                    retired.paths.append(&mut old_paths);
                    self.sinks.push(sink);
                }
            }
        }
        for old in &mut old_sinks {
            // A removed sink's last packet still goes out.
            old.send(Instant::now(), &self.socket);
        }
        retired.sinks = old_sinks;
        if !retired.is_empty() {
            // If the control side is gone the engine is stopping; dropping here is fine then.
            let _ = self.retired.send(retired);
        }
        // Senders that now match a source are no longer unknown.
        let sources = &self.sources;
        self.unknown
            .forget(|u| sources.iter().any(|s| s.matches(u)));
        self.resolve();
    }

    /// Points every tap at its source and every path at its tap (and at the tap of its new
    /// delay while it fades over to it); counts each source's taps.
    fn resolve(&mut self) {
        for s in &mut self.sources {
            s.readers = 0;
        }
        for tap in &mut self.taps {
            tap.source = self
                .sources
                .iter()
                .position(|s| s.id == tap.key.source_id)
                .unwrap_or(usize::MAX);
            // The first tap of each source measures its levels.
            tap.meters = false;
            if let Some(s) = self.sources.get_mut(tap.source) {
                tap.meters = s.readers == 0;
                s.readers += 1;
            }
        }
        let taps = &self.taps;
        for sink in &mut self.sinks {
            let rate = sink.spec.sample_rate;
            for path in &mut sink.paths {
                let find = |delay_ms: f64| {
                    taps.iter()
                        .position(|t| t.key.is(&path.spec.source_id, rate, delay_ms))
                };
                let wanted = find(path.spec.delay_ms);
                match find(path.tap_delay_ms) {
                    Some(current) if wanted != Some(current) => {
                        path.tap = current;
                        path.next_tap = wanted;
                    }
                    _ => {
                        // On its tap; or its old tap is gone (a second delay change before the
                        // first had faded over): straight to the new one.
                        if path.tap_delay_ms.to_bits() != path.spec.delay_ms.to_bits() {
                            path.rejoin();
                        }
                        path.tap = wanted.unwrap_or(usize::MAX);
                        path.tap_delay_ms = path.spec.delay_ms;
                        path.next_tap = None;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
impl Worker {
    /// A worker (the engine thread's state, without the thread) on a socket of its own, playing
    /// `sinks` as planned from the desired state; panics on a problem in the plan.
    pub(crate) fn playing(sinks: Vec<crate::desired::SinkSpec>) -> Self {
        use crate::desired::DesiredState;
        use crate::options::JitterConfig;
        use crate::runtime::plan::Planner;
        let (retired, _) = mpsc::channel();
        let socket = UdpSocket::bind((std::net::Ipv4Addr::LOCALHOST, 0)).unwrap();
        let shared = Arc::new(Mutex::new(Vec::new()));
        let mut worker = Worker::new(retired, socket, Arc::default(), shared, RtpFormat::DEFAULT);
        let mut planner = Planner::new(JitterConfig::default());
        let (state, problems) = DesiredState { sinks }.playable();
        let (plan, problems, applied) = planner.plan(state, problems);
        assert!(problems.is_empty(), "{problems:?}");
        planner.commit(applied);
        worker.apply(plan);
        worker
    }
}

/// Fills `table` (which has room) with the item for each key of `order`, taken from `fresh`
/// or else from `old`; returns what is left of `old` (to retire). `fresh` is empty by then.
fn in_order<T, K>(
    order: &[K],
    mut fresh: Vec<T>,
    mut old: Vec<T>,
    table: &mut Vec<T>,
    is: impl Fn(&T, &K) -> bool,
) -> Vec<T> {
    for key in order {
        let item = match fresh.iter().position(|t| is(t, key)) {
            Some(i) => fresh.swap_remove(i),
            None => match old.iter().position(|t| is(t, key)) {
                Some(i) => old.swap_remove(i),
                None => continue,
            },
        };
        table.push(item);
    }
    old
}

/// Asks the kernel for 50 us timer slack so sleeps end close to the sink deadlines.
fn set_timer_slack() {
    // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 50_000 as libc::c_ulong);
    }
}

/// Runs the engine thread's loop; a panic is reported (charged to what it was working on),
/// the graph dropped, and the loop starts again, empty, until the supervisor rebuilds it.
pub(crate) fn engine_thread(
    mut worker: Worker,
    data: mpsc::Receiver<Datagram>,
    commands: mpsc::Receiver<Command>,
    faults: mpsc::Sender<Message>,
) {
    loop {
        let run = std::panic::AssertUnwindSafe(|| worker.run(&data, &commands));
        match std::panic::catch_unwind(run) {
            Ok(()) => return,
            Err(payload) => {
                // Charged before the graph goes: the culprit's name is read from it.
                let culprit = worker.culprit(work::current());
                let fault = Fault::caught("trib-engine".into(), &*payload, culprit, true);
                work::working_on(Work::Idle);
                worker.discard_graph();
                if faults.send(Message::Fault(fault)).is_err() {
                    return;
                }
            }
        }
    }
}
