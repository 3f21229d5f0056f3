//! Reading levels for meters and visualizers (`Engine::levels` for sinks, `Engine::source_levels`
//! for sources): each meter ([`crate::sink::meter`]) copied, its spectrum computed here, on the
//! caller's thread, and its waveform decimated. Reading a meter is what makes the engine measure
//! it.

use crate::sink::meter::{LevelMeter, LevelReading, WAVE_LEN};
use tributary_dsp::SpectrumAnalyzer;

/// Log-spaced spectrum bands, 20 Hz to 20 kHz.
pub const SPECTRUM_BANDS: usize = 64;
/// Points of the decimated waveform.
pub const WAVE_POINTS: usize = 256;
/// Samples the waveform spans (the latest).
const WAVE_SPAN: usize = 2048;

/// One sink's (or source's) levels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Levels {
    pub id: String,
    pub name: String,
    pub channels: usize,
    pub sample_rate: u32,
    /// Meter windows measured so far (the same in two reads: nothing new).
    pub windows: u64,
    /// Per channel, linear (1.0 is full scale) over the latest ~33 ms.
    pub peak: Vec<f32>,
    pub rms: Vec<f32>,
    /// [`SPECTRUM_BANDS`] levels in dBFS, 20 Hz to 20 kHz (or half the rate), log-spaced.
    pub spectrum: Vec<f32>,
    /// The channels' average over the latest [`WAVE_SPAN`] samples as [`WAVE_POINTS`]
    /// stretches, the lowest and the highest sample of each (an envelope: nothing is lost to
    /// decimation, and a low tone still draws as a thin line).
    pub wave_min: Vec<f32>,
    pub wave_max: Vec<f32>,
}

/// Turns meter readings into levels; keeps its FFT and buffers between reads.
pub struct LevelReader {
    analyzer: SpectrumAnalyzer,
    reading: LevelReading,
}

impl Default for LevelReader {
    fn default() -> Self {
        Self {
            analyzer: SpectrumAnalyzer::new(WAVE_LEN),
            reading: LevelReading::default(),
        }
    }
}

impl LevelReader {
    /// The levels of each meter in `meters` (id, name, meter) whose id is in `ids` (all when
    /// `ids` is empty), in `meters` order.
    pub fn read<'a>(
        &mut self,
        meters: impl IntoIterator<Item = (&'a str, &'a str, &'a LevelMeter)>,
        ids: &[String],
    ) -> Vec<Levels> {
        meters
            .into_iter()
            .filter(|(id, _, _)| ids.is_empty() || ids.iter().any(|i| i == id))
            .map(|(id, name, meter)| self.one(id, name, meter))
            .collect()
    }

    fn one(&mut self, id: &str, name: &str, meter: &LevelMeter) -> Levels {
        meter.read(&mut self.reading);
        let r = &self.reading;
        let mut spectrum = vec![crate::sink::meter::SILENT_DB; SPECTRUM_BANDS];
        if r.sample_rate > 0 {
            self.analyzer.analyze(&r.wave, r.sample_rate, &mut spectrum);
        }
        let span = &r.wave[r.wave.len() - WAVE_SPAN..];
        let stretch = WAVE_SPAN / WAVE_POINTS;
        let stretches = || span.chunks(stretch);
        let wave_min = stretches()
            .map(|c| c.iter().copied().fold(f32::INFINITY, f32::min))
            .collect();
        let wave_max = stretches()
            .map(|c| c.iter().copied().fold(f32::NEG_INFINITY, f32::max))
            .collect();
        Levels {
            id: id.to_owned(),
            name: name.to_owned(),
            channels: r.channels,
            sample_rate: r.sample_rate,
            windows: r.windows,
            peak: r.peak.clone(),
            rms: r.rms.clone(),
            spectrum,
            wave_min,
            wave_max,
        }
    }
}
