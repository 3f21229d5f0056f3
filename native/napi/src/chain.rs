//! `Chain`: one route's processing, from JavaScript.

use napi::bindgen_prelude::{Buffer, Uint8ArraySlice, Unknown};
use napi_derive::napi;
use tributary_dsp::{Chain as DspChain, ChainConfig};

use crate::convert::{bytes, finite, js_error, matrix_rows, pcm, stream_format, PathSettings};

/// How to build a chain. Formats are `FORMAT:RATE:CHANNELS[:LAYOUT]`, e.g. `s16le:44100:2` or
/// `s24be:48000:6:5.1(side)`; formats are s16le, s16be (l16), s24le, s24be (l24), s32le;
/// layouts mono, stereo, quad, surround, 3.1, 4.0, 5.1, 5.1(side), 7.1 or a mask like 0x3F.
#[napi(object)]
pub struct ChainOptions {
    /// Input stream format.
    pub input: String,
    /// Output stream format.
    pub output: String,
    /// Volume 0.0-1.0 (default 1).
    pub volume: Option<f64>,
    /// 18 band gains b1..b18, each 0.0-2.0 with 1.0 flat; a gain g is 20*log10(max(g, 0.01)) dB.
    pub eq: Option<Vec<f64>>,
    /// Delay 0-5000 ms (default 0).
    pub delay_ms: Option<f64>,
    /// Channel matrix: one row per output channel, one gain per input channel. Default: the
    /// ITU-style down-mix / duplicating up-mix for the two layouts.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Loudness normalisation (RMS AGC) on or off (default off).
    pub normalize: Option<bool>,
    /// TPDF dither when the output has fewer bits than the input (default on).
    pub dither: Option<bool>,
    /// Keep a resampler in the path at equal rates so the ratio can be adjusted (default off).
    pub drift_correction: Option<bool>,
}

/// Live settings for `Chain.set()`; absent fields stay as they are. Also what
/// `Chain.settings()` returns (then every field is present).
#[napi(object)]
pub struct ChainSettings {
    /// Volume 0.0-1.0, ramped over 20 ms.
    pub volume: Option<f64>,
    /// 18 band gains 0.0-2.0, ramped over 50 ms.
    pub eq: Option<Vec<f64>>,
    /// Delay 0-5000 ms, crossfaded over 10 ms.
    pub delay_ms: Option<f64>,
    /// Channel matrix rows; an empty array restores the default matrix.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Loudness normalisation on or off.
    pub normalize: Option<bool>,
    /// TPDF dither on or off (applies only when reducing bit depth).
    pub dither: Option<bool>,
    /// Relative resampling-ratio adjustment for clock drift, within +-0.05 (positive consumes
    /// input faster). Needs a resampler (different rates or driftCorrection).
    pub ratio_adjust: Option<f64>,
}

/// A route's processing: input format -> matrix -> resample -> EQ -> volume -> delay ->
/// normalisation -> output format. A neutral chain returns its input bytes unchanged.
#[napi]
pub struct Chain {
    inner: DspChain,
}

#[napi]
impl Chain {
    #[napi(constructor)]
    pub fn new(options: ChainOptions) -> napi::Result<Self> {
        let input = stream_format("input", &options.input)?;
        let output = stream_format("output", &options.output)?;
        let mut cfg = ChainConfig::new(input, output);
        let settings = PathSettings::parse(
            options.volume,
            options.eq.as_deref(),
            options.delay_ms,
            options.matrix.as_deref(),
            false,
        )?;
        cfg.volume = settings.volume.unwrap_or(cfg.volume);
        cfg.eq = settings.eq.unwrap_or(cfg.eq);
        cfg.delay_ms = settings.delay_ms.unwrap_or(cfg.delay_ms);
        cfg.matrix = settings.matrix.flatten();
        cfg.normalize = options.normalize.unwrap_or(false);
        cfg.dither = options.dither.unwrap_or(true);
        cfg.drift_correction = options.drift_correction.unwrap_or(false);
        Ok(Chain {
            inner: DspChain::new(&cfg).map_err(js_error)?,
        })
    }

    /// Processes interleaved PCM bytes (any length; partial frames are kept for the next call)
    /// and returns the output bytes.
    #[napi(
        ts_args_type = "input: Buffer | Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array"
    )]
    pub fn process(&mut self, input: Unknown) -> napi::Result<Buffer> {
        let input = pcm("input", input)?;
        let input = bytes(&input);
        let mut out = vec![0u8; self.inner.max_output_bytes(input.len())];
        let n = self.inner.process_into(input, &mut out).map_err(js_error)?;
        out.truncate(n);
        Ok(out.into())
    }

    /// Like `process` but writes into `output` (which must hold `maxOutputBytes(input.length)`)
    /// and returns the number of bytes written: no allocation per call.
    #[napi(
        ts_args_type = "input: Buffer | Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array, output: Buffer | Uint8Array"
    )]
    pub fn process_into(
        &mut self,
        input: Unknown,
        mut output: Uint8ArraySlice,
    ) -> napi::Result<u32> {
        let input = pcm("input", input)?;
        // SAFETY: this synchronous call runs on the JavaScript thread, so no JavaScript code can
        // touch the output view while Rust writes it.
        let output = unsafe { output.as_mut() };
        let n = self
            .inner
            .process_into(bytes(&input), output)
            .map_err(js_error)?;
        Ok(n as u32)
    }

    /// The most bytes one call with `inputLength` input bytes can return.
    #[napi]
    pub fn max_output_bytes(&self, input_length: u32) -> u32 {
        self.inner.max_output_bytes(input_length as usize) as u32
    }

    /// Applies live changes; each is smoothed. Throws (and changes nothing more) on the first
    /// invalid field.
    #[napi]
    pub fn set(&mut self, settings: ChainSettings) -> napi::Result<()> {
        let live = PathSettings::parse(
            settings.volume,
            settings.eq.as_deref(),
            settings.delay_ms,
            settings.matrix.as_deref(),
            true,
        )?;
        if let Some(v) = live.volume {
            self.inner.set_volume(v).map_err(js_error)?;
        }
        if let Some(eq) = &live.eq {
            self.inner.set_eq(eq).map_err(js_error)?;
        }
        if let Some(d) = live.delay_ms {
            self.inner.set_delay_ms(d).map_err(js_error)?;
        }
        if let Some(m) = live.matrix {
            self.inner.set_matrix(m).map_err(js_error)?;
        }
        if let Some(on) = settings.normalize {
            self.inner.set_normalize(on);
        }
        if let Some(on) = settings.dither {
            self.inner.set_dither(on);
        }
        if let Some(r) = settings.ratio_adjust {
            self.inner
                .set_ratio_adjust(finite("ratioAdjust", r)?)
                .map_err(js_error)?;
        }
        Ok(())
    }

    /// The current settings (targets of any running ramps).
    #[napi]
    pub fn settings(&self) -> ChainSettings {
        let c = self.inner.config();
        ChainSettings {
            volume: Some(c.volume as f64),
            eq: Some(c.eq.iter().map(|g| *g as f64).collect()),
            delay_ms: Some(c.delay_ms),
            matrix: Some(c.matrix.as_ref().map(matrix_rows).unwrap_or_default()),
            normalize: Some(c.normalize),
            dither: Some(c.dither),
            ratio_adjust: Some(self.inner.ratio_adjust()),
        }
    }

    /// The input format, normalised (e.g. `s16le:44100:2:stereo`).
    #[napi(getter)]
    pub fn input_format(&self) -> String {
        self.inner.config().input.to_string()
    }

    /// The output format, normalised.
    #[napi(getter)]
    pub fn output_format(&self) -> String {
        self.inner.config().output.to_string()
    }

    /// True when the next call copies the input bytes unchanged.
    #[napi(getter)]
    pub fn is_passthrough(&self) -> bool {
        self.inner.is_passthrough()
    }

    /// Output frames of delay the resampler adds (0 without one).
    #[napi(getter)]
    pub fn latency_frames(&self) -> u32 {
        self.inner.latency_frames() as u32
    }
}
