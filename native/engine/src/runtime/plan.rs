//! Planning a change of graph, on the thread that calls `apply`: the new state is diffed
//! against the last one, everything new is built here (allocation happens off the real-time
//! thread, including room for the engine thread's new tables and for what it retires), and
//! the result is one [`Plan`] the engine thread swaps in between ticks ([`crate::runtime::worker`]).
//! Unchanged sinks, taps and paths keep their state; a changed equalizer is designed here.

use crate::desired::{ConfigError, DesiredState, PathSpec, SinkSpec};
use crate::graph::path::Path;
use crate::graph::tap::{Tap, TapKey};
use crate::options::JitterConfig;
use crate::runtime::plan::path_counters::PathCounterEntry;
pub(crate) use crate::runtime::plan::room::{Retired, Room};
use crate::sink::counters::SinkCounters;
use crate::sink::Sink;
use crate::source::counters::{unpack_format, SourceCounters};
use crate::source::memory::MemoryShared;
use crate::source::slot::{layout_for, SourceSlot};
use crate::source::timeline::Timeline;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tributary_dsp::eq::{Design, Designer};

/// Largest source buffer the engine thread copies into a bigger one when a longer delay needs
/// it (16 MB: about 3 ms); larger buffers are rebuilt (that source restarts with a prebuffer).
const MAX_GROW_COPY_BYTES: f64 = 16e6;

/// A sink in a plan: kept (with its new path list and room for it) or built anew.
pub(crate) enum SinkPlan {
    Keep {
        id: String,
        paths: Vec<PathPlan>,
        room: Vec<Path>,
    },
    New(Box<Sink>),
}

/// A path in a kept sink: kept (levels updated, with its new equalizer design when the
/// equalizer changed) or built anew.
// The design travels inline (a few hundred bytes once per apply) so the engine thread frees no
// box of it.
#[allow(clippy::large_enum_variant)]
pub(crate) enum PathPlan {
    Keep(PathSpec, Option<Design>),
    New(Box<Path>),
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

/// What the planner remembers of the graph the engine thread holds.
#[derive(Default)]
pub(crate) struct Applied {
    pub state: DesiredState,
    /// Per source id: its name and counters.
    pub source_counters: HashMap<String, (String, Arc<SourceCounters>)>,
    /// Per sink: id, name, counters.
    pub sink_counters: Vec<(String, String, Arc<SinkCounters>)>,
    /// Capacity (s) of each live source's buffer, to know when a delay needs a bigger one.
    pub source_capacity: HashMap<String, f64>,
    /// The taps the engine thread holds, in table order.
    pub tap_keys: Vec<TapKey>,
    /// Per path (sink, source): its counters.
    pub path_counters: Vec<PathCounterEntry>,
    /// The ring each in-process source of the graph reads.
    pub memory: HashMap<String, Arc<MemoryShared>>,
}

/// Plans each change against what was applied before.
pub(crate) struct Planner {
    jitter: JitterConfig,
    pub applied: Applied,
    /// In-process sources by id (see [`crate::source::memory`]): a path naming one plays it.
    pub memory: HashMap<String, Arc<MemoryShared>>,
    /// The next plan builds every sink, tap and path anew (the engine thread lost its graph);
    /// counters are kept.
    fresh_graph: bool,
}

impl Planner {
    pub fn new(jitter: JitterConfig) -> Self {
        Self {
            jitter,
            applied: Applied::default(),
            memory: HashMap::new(),
            fresh_graph: false,
        }
    }

    /// The engine thread lost its graph (a fault): the next plan builds it all again.
    pub fn lost_graph(&mut self) {
        self.fresh_graph = true;
    }

    /// Plans `state` (already checked: every sink playable). Returns the plan, the sinks that
    /// could not be built (one error each, added to `problems`), and what to remember once the
    /// engine thread has the plan ([`Planner::commit`]).
    pub fn plan(
        &mut self,
        state: DesiredState,
        mut problems: Vec<ConfigError>,
    ) -> (Plan, Vec<ConfigError>, Applied) {
        if self.fresh_graph {
            // Nothing of the old graph exists on the engine thread: build it all again (the
            // sinks too, see `plan_sink`); counters of unchanged sources and sinks are kept.
            self.applied.source_capacity.clear();
            self.applied.tap_keys.clear();
        }
        let start = Instant::now() + Duration::from_millis(5);
        let sources = self.plan_sources(&state);
        let mut path_counters = path_counters::plan(&self.applied.path_counters, &state);
        // Sinks.
        let mut sinks = Vec::new();
        let mut sink_counters = Vec::new();
        let mut failed = HashSet::new();
        for (k, sink) in state.sinks.iter().enumerate() {
            match self.plan_sink(k, sink, start, &sources.rebuilt, &path_counters) {
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
        path_counters.retain(|e| !failed.contains(&e.sink_id));
        let (tap_keys, new_taps) = self.plan_taps(&state, &sources.rebuilt);
        let old_paths = self.applied.state.sinks.iter().map(|s| s.paths.len()).sum();
        let room = Room {
            sources: Vec::with_capacity(sources.order.len()),
            taps: Vec::with_capacity(tap_keys.len()),
            sinks: Vec::with_capacity(sinks.len()),
            retired: Retired {
                paths: Vec::with_capacity(old_paths),
                timelines: Vec::with_capacity(sources.grown.len()),
                ..Retired::default()
            },
        };
        let memory = (sources.order.iter())
            .filter_map(|id| Some((id.clone(), self.memory.get(id)?.clone())))
            .collect();
        let plan = Plan {
            sources: sources.order,
            new_sources: sources.new_sources,
            grown: sources.grown,
            taps: tap_keys.clone(),
            new_taps,
            sinks,
            room,
        };
        let applied = Applied {
            memory,
            state,
            source_counters: sources.counters,
            sink_counters,
            source_capacity: sources.capacity,
            tap_keys,
            path_counters,
        };
        (plan, problems, applied)
    }

    /// Remembers what the engine thread now holds.
    pub fn commit(&mut self, applied: Applied) {
        self.applied = applied;
        self.fresh_graph = false;
    }

    /// Every distinct source of the paths, in order, with its longest delay: kept, grown or
    /// built anew.
    fn plan_sources(&self, state: &DesiredState) -> SourcesPlan {
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
            .state
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
            let ring = self.memory.get(id.as_str());
            let same = old_specs
                .get(id.as_str())
                .is_some_and(|old| same_matching(old, spec))
                && match (ring, self.applied.memory.get(id.as_str())) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                    (a, b) => a.is_none() && b.is_none(),
                };
            if let (true, Some(&cap)) = (same, self.applied.source_capacity.get(id)) {
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
            let counters = match self.applied.source_counters.get(id) {
                Some((_, c)) if same => c.clone(),
                _ => Arc::new(SourceCounters::default()),
            };
            let mut slot = SourceSlot::new(spec, max_delay, self.jitter, counters);
            if let Some(ring) = ring {
                slot = slot.with_memory(ring.clone());
            }
            capacity.insert(id.clone(), slot.capacity_s);
            rebuilt.insert(id.clone());
            new_sources.push(slot);
        }
        let counters = order
            .iter()
            .map(|id| {
                let spec = specs[id.as_str()].0;
                let counters = new_sources
                    .iter()
                    .find(|s| &s.id == id)
                    .map(|s| s.counters.clone())
                    .or_else(|| self.applied.source_counters.get(id).map(|(_, c)| c.clone()))
                    .unwrap_or_default();
                (id.clone(), (spec.source_name.clone(), counters))
            })
            .collect();
        SourcesPlan {
            order,
            new_sources,
            grown,
            rebuilt,
            capacity,
            counters,
        }
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
                .state
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
            .filter(|k| rebuilt.contains(&k.source_id) || !self.applied.tap_keys.contains(k))
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
        if let Some(m) = self.memory.get(&p.source_id) {
            return (m.format.sample_rate, usize::from(m.format.channels));
        }
        let seen = self
            .applied
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
        path_counters: &[PathCounterEntry],
    ) -> Result<(SinkPlan, Arc<SinkCounters>), ConfigError> {
        let old = self.applied.state.sinks.iter().find(|s| s.id == sink.id);
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
                    paths.push(PathPlan::New(Box::new(self.build_path(
                        p,
                        sink,
                        path_counters,
                    )?)));
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
        let mut built = Sink::new(sink, start, k as u64 ^ hash(&sink.id))
            .map_err(|e| ConfigError(format!("sinks[{k}]: {}", e.0)))?;
        if let Some(c) = self.sink_counter(&sink.id) {
            built.counters = c;
        }
        for p in &sink.paths {
            built.paths.push(self.build_path(p, sink, path_counters)?);
        }
        let counters = built.counters.clone();
        Ok((SinkPlan::New(Box::new(built)), counters))
    }

    fn build_path(
        &self,
        p: &PathSpec,
        sink: &SinkSpec,
        counters: &[PathCounterEntry],
    ) -> Result<Path, ConfigError> {
        let (_, channels) = self.source_format(p);
        let max_frames = Sink::max_frames_for(sink);
        let mut path = Path::new(p, layout_for(channels, 0), sink, max_frames)
            .map_err(|e| ConfigError(format!("path {} -> {}: {e}", p.source_name, sink.name)))?;
        path.counters = path_counters::find(counters, &sink.id, &p.source_id).unwrap_or_default();
        Ok(path)
    }

    pub fn sink_counter(&self, id: &str) -> Option<Arc<SinkCounters>> {
        self.applied
            .sink_counters
            .iter()
            .find(|(i, _, _)| i == id)
            .map(|(_, _, c)| c.clone())
    }
}

/// The sources of a plan.
struct SourcesPlan {
    order: Vec<String>,
    new_sources: Vec<SourceSlot>,
    grown: Vec<(String, f64, Timeline)>,
    /// Sources built anew (their taps and paths are too).
    rebuilt: HashSet<String>,
    capacity: HashMap<String, f64>,
    counters: HashMap<String, (String, Arc<SourceCounters>)>,
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

mod path_counters;
mod room;
#[cfg(test)]
mod tests;
