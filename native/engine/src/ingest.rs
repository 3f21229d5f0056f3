//! The engine thread: drains the receive queue (parse, match to a source, buffer), ticks each
//! sink when its deadline comes, applies plans between ticks, and publishes stats.

use crate::engine::{Command, PathPlan, Plan, SinkPlan};
use crate::fault::{self, Culprit, Work};
use crate::net::{Datagram, PortKind, MAX_DATAGRAM};
use crate::packet::DropReason;
use crate::rtcp::{self, RtcpPacket};
use crate::rtp::{self, RtpFormat};
use crate::sink::SinkRt;
use crate::source::{default_mask, SourceSlot};
use crate::stats::{add_thread_cpu, pack_format, DetectedFormat, EngineCounters};
use crate::tap::Tap;
use crate::{scream, tagged};
use std::net::{IpAddr, UdpSocket};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Unknown senders remembered.
const MAX_UNKNOWN: usize = 64;
/// Longest sleep when no sink is due (keeps stats and commands responsive).
const IDLE_WAKE: Duration = Duration::from_millis(5);
const PUBLISH_EVERY: Duration = Duration::from_millis(100);

/// A sender no source matched.
#[derive(Clone, Debug)]
pub struct Unknown {
    pub kind: PortKind,
    pub address: IpAddr,
    pub port: u16,
    pub tag: Option<String>,
    pub packets: u64,
    pub format: u64,
    pub last_seen: Instant,
}

/// What the engine thread takes out of the graph. It is dropped on the control thread, so
/// freeing large buffers (a 300 s timeshift ring is ~115 MB) never stalls audio. The plan
/// brings it with room for everything the current graph holds, so retiring never allocates.
#[derive(Default)]
pub struct Retired {
    pub sources: Vec<SourceSlot>,
    /// Source buffers a bigger one took over from.
    pub timelines: Vec<crate::timeline::Timeline>,
    pub taps: Vec<Tap>,
    pub sinks: Vec<SinkRt>,
    pub paths: Vec<crate::path::PathRt>,
}

impl Retired {
    fn is_empty(&self) -> bool {
        self.sources.is_empty()
            && self.timelines.is_empty()
            && self.taps.is_empty()
            && self.sinks.is_empty()
            && self.paths.is_empty()
    }
}

/// State owned by the engine thread.
pub struct Core {
    retired: mpsc::Sender<Retired>,
    sources: Vec<SourceSlot>,
    taps: Vec<Tap>,
    sinks: Vec<SinkRt>,
    socket: UdpSocket,
    counters: Arc<EngineCounters>,
    unknown: Vec<Unknown>,
    unknown_dirty: bool,
    shared_unknown: Arc<Mutex<Vec<Unknown>>>,
    default_rtp: RtpFormat,
    tag: String,
    epoch: Instant,
    #[cfg(feature = "fault-injection")]
    injected: crate::fault_injection::Armed,
}

impl Core {
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
            unknown: Vec::with_capacity(MAX_UNKNOWN),
            unknown_dirty: false,
            shared_unknown,
            default_rtp,
            tag: String::with_capacity(128),
            epoch: Instant::now(),
            #[cfg(feature = "fault-injection")]
            injected: crate::fault_injection::Armed::default(),
        }
    }

    /// Runs until told to stop or the control handle is gone. A panic unwinds out of it (see
    /// [`crate::supervisor`]), which may then call [`Core::discard_graph`] and run it again.
    pub fn run(&mut self, data: &mpsc::Receiver<Datagram>, commands: &mpsc::Receiver<Command>) {
        set_timer_slack();
        crate::rt::raise_current_thread(40);
        let mut cpu = crate::stats::thread_cpu_ns();
        let mut next_publish = Instant::now();
        loop {
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
            let now_s = now.duration_since(self.epoch).as_secs_f64();
            let mut next = now + IDLE_WAKE;
            for (k, sink) in self.sinks.iter_mut().enumerate() {
                if sink.deadline() <= now {
                    fault::working_on(Work::Sink(k));
                    sink.tick(&mut self.sources, &mut self.taps, now, now_s, &self.socket);
                    fault::working_on(Work::Idle);
                }
                next = next.min(sink.deadline());
            }
            for s in &mut self.sources {
                if s.readers == 0 {
                    // Nobody plays it: keep its play position a target behind the newest audio.
                    let head = s.buffer.timeline.write_head();
                    s.buffer.play_pos = head.saturating_sub(s.buffer.target_frames() as u64);
                }
            }
            if now >= next_publish {
                next_publish = now + PUBLISH_EVERY;
                cpu = add_thread_cpu(&self.counters.cpu_ns, cpu);
                self.publish();
            }
            // Sleep until the next tick: packets only matter to the next render, so they wait
            // in the queue (stamped on arrival by the receivers) instead of waking this thread
            // one by one; every sink due at the same time ticks on one wake-up.
            let wait = next.saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                std::thread::sleep(wait);
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
        for s in &self.sources {
            s.publish();
        }
        if self.unknown_dirty {
            if let Ok(mut shared) = self.shared_unknown.try_lock() {
                shared.clone_from(&self.unknown);
                self.unknown_dirty = false;
            }
        }
    }

    fn apply(&mut self, plan: Plan) {
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
                    if let Some(old) = old_sinks.iter().find(|s| s.spec.id == sink.spec.id) {
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
        retired.sinks = old_sinks;
        if !retired.is_empty() {
            // If the control side is gone the engine is stopping; dropping here is fine then.
            let _ = self.retired.send(retired);
        }
        // Senders that now match a source are no longer unknown.
        let sources = &self.sources;
        self.unknown
            .retain(|u| !sources.iter().any(|s| s.matches(u)));
        self.unknown_dirty = true;
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
            if let Some(s) = self.sources.get_mut(tap.source) {
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

    /// Handles one datagram. Never panics, never allocates (except remembering a new unknown
    /// sender).
    fn ingest(&mut self, d: &Datagram) {
        let arrival_s = d
            .arrival
            .saturating_duration_since(self.epoch)
            .as_secs_f64();
        let from = d.from.ip();
        let from = match from {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(from),
            v4 => v4,
        };
        if d.len > MAX_DATAGRAM {
            self.malformed(d.kind, from, d.port, DropReason::Oversized);
            return;
        }
        let bytes = &d.data[..d.len];
        match d.kind {
            PortKind::Scream => match scream::parse(bytes) {
                Ok(p) => {
                    let idx = self
                        .sources
                        .iter()
                        .position(|s| s.rtp.is_none() && s.tag.is_none() && s.ip == Some(from));
                    self.scream_into(idx, 1, p, from, d.port, arrival_s);
                }
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::TaggedScream => match tagged::parse(bytes) {
                Ok(p) => {
                    p.write_tag(&mut self.tag);
                    let tag = self.tag.as_str();
                    let idx = self
                        .sources
                        .iter()
                        .position(|s| s.tag.as_deref() == Some(tag));
                    self.scream_into(idx, 2, p.scream, from, d.port, arrival_s);
                }
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::Rtp => match rtp::parse(bytes) {
                Ok(p) => self.rtp_into(p, from, d.port, arrival_s),
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::Rtcp => self.rtcp_into(bytes, from, d.port),
        }
        fault::working_on(Work::Idle);
    }

    fn scream_into(
        &mut self,
        idx: Option<usize>,
        kind: u8,
        p: scream::ScreamPacket<'_>,
        from: IpAddr,
        port: u16,
        arrival_s: f64,
    ) {
        let f = p.format;
        let detected = DetectedFormat {
            kind,
            bit_depth: f.bit_depth,
            channels: f.channels,
            big_endian: false,
            sample_rate: f.sample_rate,
        };
        if let Some(i) = idx {
            fault::working_on(Work::Source(i));
            #[cfg(feature = "fault-injection")]
            self.injected.source_packet(&self.sources[i].id);
        }
        let Some(slot) = idx.and_then(|i| self.sources.get_mut(i)) else {
            let kind = if kind == 2 {
                PortKind::TaggedScream
            } else {
                PortKind::Scream
            };
            let tag = (kind == PortKind::TaggedScream).then_some(());
            self.unknown_sender(kind, from, port, tag, pack_format(detected));
            return;
        };
        let channels = usize::from(f.channels);
        let changed = slot.buffer.rate() != f.sample_rate
            || slot.buffer.channels() != channels
            || slot.mask != u32::from(f.channel_mask)
            || (slot.bit_depth != 0 && slot.bit_depth != f.bit_depth);
        if changed {
            if !slot.may_reformat(arrival_s) {
                slot.counters.malformed.fetch_add(1, Relaxed);
                return;
            }
            slot.reformat(f.sample_rate, channels, u32::from(f.channel_mask));
        }
        slot.bit_depth = f.bit_depth;
        slot.note_format(detected);
        slot.buffer
            .push_scream(p.payload, f.sample_format(), arrival_s);
    }

    fn rtp_into(&mut self, p: rtp::RtpPacket<'_>, from: IpAddr, port: u16, arrival_s: f64) {
        let idx = self.sources.iter().position(|s| {
            s.rtp.as_ref().is_some_and(|r| {
                r.port == port && r.payload_type.is_none_or(|pt| pt == p.payload_type)
            }) && s.ip.is_none_or(|ip| ip == from)
        });
        if let Some(i) = idx {
            fault::working_on(Work::Source(i));
            #[cfg(feature = "fault-injection")]
            self.injected.source_packet(&self.sources[i].id);
        }
        let Some(slot) = idx.and_then(|i| self.sources.get_mut(i)) else {
            let f = RtpFormat::from_static_payload_type(p.payload_type).unwrap_or(self.default_rtp);
            let detected = rtp_detected(&f);
            self.unknown_sender(PortKind::Rtp, from, port, None, pack_format(detected));
            return;
        };
        let Some(spec) = slot.rtp.as_ref() else {
            return;
        };
        let f = spec.format;
        let channels = usize::from(f.channels);
        if slot.buffer.rate() != f.sample_rate || slot.buffer.channels() != channels {
            slot.reformat(f.sample_rate, channels, default_mask(channels));
        }
        if p.payload.len() % f.frame_bytes() != 0 {
            slot.counters.malformed.fetch_add(1, Relaxed);
            return;
        }
        slot.note_format(rtp_detected(&f));
        slot.buffer
            .push_rtp(p.sequence, p.timestamp, p.payload, f.encoding, arrival_s);
    }

    fn rtcp_into(&mut self, bytes: &[u8], from: IpAddr, port: u16) {
        let rtp_port = port.wrapping_sub(1);
        let slot = self.sources.iter().find(|s| {
            s.rtp.as_ref().is_some_and(|r| r.port == rtp_port) && s.ip.is_none_or(|ip| ip == from)
        });
        let Some(slot) = slot else {
            self.counters.unknown_packets.fetch_add(1, Relaxed);
            return;
        };
        for packet in rtcp::parse(bytes).take(32) {
            match packet {
                Ok(RtcpPacket::SenderReport { .. } | RtcpPacket::ReceiverReport { .. }) => {
                    slot.counters.rtcp_packets.fetch_add(1, Relaxed);
                }
                Ok(_) => {}
                Err(_) => {
                    slot.counters.malformed.fetch_add(1, Relaxed);
                    break;
                }
            }
        }
    }

    fn malformed(&mut self, kind: PortKind, from: IpAddr, port: u16, _why: DropReason) {
        // Charge it to the source that sender feeds, if any.
        let slot = self.sources.iter().find(|s| match kind {
            PortKind::Rtp | PortKind::Rtcp => {
                s.rtp.as_ref().is_some_and(|r| r.port == port) && s.ip.is_none_or(|ip| ip == from)
            }
            _ => s.rtp.is_none() && s.ip == Some(from),
        });
        match slot {
            Some(s) => {
                s.counters.malformed.fetch_add(1, Relaxed);
            }
            None => {
                self.counters.malformed_unknown.fetch_add(1, Relaxed);
            }
        }
    }

    fn unknown_sender(
        &mut self,
        kind: PortKind,
        address: IpAddr,
        port: u16,
        tagged: Option<()>,
        format: u64,
    ) {
        self.counters.unknown_packets.fetch_add(1, Relaxed);
        let tag = tagged.map(|()| self.tag.as_str());
        let now = Instant::now();
        if let Some(u) = self.unknown.iter_mut().find(|u| {
            u.kind == kind && u.address == address && u.port == port && u.tag.as_deref() == tag
        }) {
            u.packets += 1;
            u.last_seen = now;
            u.format = format;
            // Published with the next stats round (every 100 ms).
            self.unknown_dirty = true;
            return;
        }
        if self.unknown.len() == MAX_UNKNOWN {
            if let Some(oldest) = self
                .unknown
                .iter()
                .enumerate()
                .min_by_key(|(_, u)| u.last_seen)
                .map(|(i, _)| i)
            {
                self.unknown.swap_remove(oldest);
            }
        }
        self.unknown.push(Unknown {
            kind,
            address,
            port,
            tag: tag.map(str::to_owned),
            packets: 1,
            format,
            last_seen: now,
        });
        self.unknown_dirty = true;
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

fn rtp_detected(f: &RtpFormat) -> DetectedFormat {
    DetectedFormat {
        kind: 3,
        bit_depth: (f.encoding.bytes_per_sample() * 8) as u8,
        channels: f.channels,
        big_endian: f.encoding != tributary_dsp::SampleFormat::S16Le,
        sample_rate: f.sample_rate,
    }
}

/// Asks the kernel for 50 us timer slack so sleeps end close to the sink deadlines.
fn set_timer_slack() {
    // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 50_000 as libc::c_ulong);
    }
}
