//! The counters of every path (a source playing on a sink), one per (sink, source), kept across
//! applies like the sinks' and sources' counters: a path rebuilt (its source or sink changed)
//! counts on. Built here, off the real-time thread; a path holds its own `Arc` and only adds to
//! it.

use crate::desired::DesiredState;
use crate::sink::counters::PathCounters;
use std::sync::Arc;

/// One path's counters, with what identifies the path.
pub(crate) struct PathCounterEntry {
    pub sink_id: String,
    pub source_id: String,
    pub counters: Arc<PathCounters>,
}

/// The counters of every path of `state`, in its order: the ones in `old` for paths that were
/// there before, new ones for the others (paths gone are dropped).
pub(crate) fn plan(old: &[PathCounterEntry], state: &DesiredState) -> Vec<PathCounterEntry> {
    state
        .sinks
        .iter()
        .flat_map(|sink| sink.paths.iter().map(move |p| (sink, p)))
        .map(|(sink, p)| PathCounterEntry {
            sink_id: sink.id.clone(),
            source_id: p.source_id.clone(),
            counters: find(old, &sink.id, &p.source_id).unwrap_or_default(),
        })
        .collect()
}

/// The counters of the path from `source_id` to `sink_id`, if `table` has it.
pub(crate) fn find(
    table: &[PathCounterEntry],
    sink_id: &str,
    source_id: &str,
) -> Option<Arc<PathCounters>> {
    table
        .iter()
        .find(|e| e.sink_id == sink_id && e.source_id == source_id)
        .map(|e| e.counters.clone())
}
