//! What a plan brings besides the new graph: empty tables for it and room for what it
//! retires, so the engine thread swaps graphs without allocating.

use crate::graph::path::Path;
use crate::graph::tap::Tap;
use crate::sink::Sink;
use crate::source::slot::SourceSlot;
use crate::source::timeline::Timeline;

/// Empty tables with room for the new graph, and room for what it retires: the engine thread
/// fills them without allocating.
pub(crate) struct Room {
    pub sources: Vec<SourceSlot>,
    pub taps: Vec<Tap>,
    pub sinks: Vec<Sink>,
    pub retired: Retired,
}

/// What the engine thread takes out of the graph. It is dropped on the control thread, so
/// freeing large buffers (a 300 s timeshift ring is ~115 MB) never stalls audio. The plan
/// brings it with room for everything the current graph holds, so retiring never allocates.
#[derive(Default)]
pub(crate) struct Retired {
    pub sources: Vec<SourceSlot>,
    /// Source buffers a bigger one took over from.
    pub timelines: Vec<Timeline>,
    pub taps: Vec<Tap>,
    pub sinks: Vec<Sink>,
    pub paths: Vec<Path>,
}

impl Retired {
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
            && self.timelines.is_empty()
            && self.taps.is_empty()
            && self.sinks.is_empty()
            && self.paths.is_empty()
    }
}
