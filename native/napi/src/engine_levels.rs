//! `engine.levels(ids)` and `engine.sourceLevels(ids)`: each sink's (or source's) peak and RMS
//! per channel, a 64-band spectrum and a decimated waveform of what it sends (a source: what it
//! sends into the graph), for meters and visualizers. Reading one is what makes the engine
//! measure it (for two seconds after each read); nobody reading costs nothing. The values cross
//! as the engine's `f32` (`Float32Array`), not widened to JavaScript numbers one by one.

use crate::engine::Engine;
use napi::bindgen_prelude::Float32Array;
use napi_derive::napi;

/// One sink's levels as sent, or one source's as it enters the graph.
#[napi(object)]
pub struct EngineLevels {
    #[napi(js_name = "config_id")]
    pub config_id: String,
    pub name: String,
    pub channels: u32,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    /// Meter windows (~33 ms each) measured so far; unchanged between two reads: nothing new.
    pub windows: f64,
    /// Per channel, linear (1.0 is full scale), over the latest window.
    pub peak: Float32Array,
    pub rms: Float32Array,
    /// 64 levels in dBFS (-120 floor), log-spaced from 20 Hz to 20 kHz (or half the rate).
    pub spectrum: Float32Array,
    /// The channels' average over the latest 2048 samples in 256 stretches: the lowest sample
    /// of each...
    #[napi(js_name = "wave_min")]
    pub wave_min: Float32Array,
    /// ...and the highest.
    #[napi(js_name = "wave_max")]
    pub wave_max: Float32Array,
}

impl From<tributary_engine::Levels> for EngineLevels {
    fn from(l: tributary_engine::Levels) -> Self {
        Self {
            config_id: l.id,
            name: l.name,
            channels: l.channels as u32,
            sample_rate: l.sample_rate,
            windows: l.windows as f64,
            peak: l.peak.into(),
            rms: l.rms.into(),
            spectrum: l.spectrum.into(),
            wave_min: l.wave_min.into(),
            wave_max: l.wave_max.into(),
        }
    }
}

#[napi]
impl Engine {
    /// The levels of the sinks whose `config_id` is in `ids` (every sink when absent or
    /// empty). A sink starts being measured at its first read, so that read gives zeros.
    #[napi(catch_unwind)]
    pub fn levels(&mut self, ids: Option<Vec<String>>) -> napi::Result<Vec<EngineLevels>> {
        let levels = self.core()?.levels(&ids.unwrap_or_default());
        Ok(levels.into_iter().map(EngineLevels::from).collect())
    }

    /// The levels of the sources whose `config_id` is in `ids` (every source the engine plays
    /// when absent or empty), as they enter the graph, before any route's volume or EQ. Only
    /// sources an enabled route plays are reported; the first read gives zeros.
    #[napi(catch_unwind)]
    pub fn source_levels(&mut self, ids: Option<Vec<String>>) -> napi::Result<Vec<EngineLevels>> {
        let levels = self.core()?.source_levels(&ids.unwrap_or_default());
        Ok(levels.into_iter().map(EngineLevels::from).collect())
    }
}
