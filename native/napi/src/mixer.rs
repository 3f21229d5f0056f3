//! `Mixer`: sums PCM streams of one format with gains and a soft limiter, from JavaScript.

use napi::bindgen_prelude::{Buffer, TypedArray, Unknown};
use napi_derive::napi;
use tributary_dsp::{decode_into, AudioBuffer, Encoder, Mixer as DspMixer, StreamFormat};

use crate::convert::{bytes, finite, invalid, js_error, pcm, stream_format};

/// How to build a mixer.
#[napi(object)]
pub struct MixerOptions {
    /// The format of every input and of the output, `FORMAT:RATE:CHANNELS[:LAYOUT]`.
    pub format: String,
    /// TPDF dither on the output (default off: inputs and output share a bit depth).
    pub dither: Option<bool>,
}

/// Sums N interleaved PCM inputs of one format (the sum has f32 headroom) and passes it through
/// a soft limiter (knee -1 dBFS, ceiling 0.999), so overload saturates smoothly, never wraps.
#[napi]
pub struct Mixer {
    format: StreamFormat,
    inner: DspMixer,
    scratch: AudioBuffer,
    out: AudioBuffer,
    encoder: Encoder,
}

#[napi]
impl Mixer {
    #[napi(constructor)]
    pub fn new(options: MixerOptions) -> napi::Result<Self> {
        let format = stream_format("format", &options.format)?;
        let channels = format.channels();
        Ok(Mixer {
            inner: DspMixer::new(channels, format.rate, 0).map_err(js_error)?,
            scratch: AudioBuffer::new(channels, 0),
            out: AudioBuffer::new(channels, 0),
            encoder: Encoder::new(format.sample_format, options.dither.unwrap_or(false)),
            format,
        })
    }

    /// Mixes the inputs (whole frames; shorter inputs are padded with silence) with optional
    /// per-input gains (default 1 each) and returns the mixed bytes.
    #[napi(
        ts_args_type = "inputs: Array<Buffer | Uint8Array | Int16Array | Int32Array>, gains?: number[] | undefined | null"
    )]
    pub fn mix(&mut self, inputs: Vec<Unknown>, gains: Option<Vec<f64>>) -> napi::Result<Buffer> {
        let inputs: Vec<TypedArray> = inputs
            .into_iter()
            .enumerate()
            .map(|(i, v)| pcm(&format!("inputs[{i}]"), v))
            .collect::<napi::Result<_>>()?;
        let gains = gains.unwrap_or_else(|| vec![1.0; inputs.len()]);
        if gains.len() != inputs.len() {
            return Err(invalid(format!(
                "gains has {} entries for {} inputs",
                gains.len(),
                inputs.len()
            )));
        }
        let fb = self.format.frame_bytes();
        let frames = inputs
            .iter()
            .map(|i| bytes(i).len() / fb)
            .max()
            .unwrap_or(0);
        if frames > self.inner.max_frames() {
            let ch = self.format.channels();
            self.inner = DspMixer::new(ch, self.format.rate, frames).map_err(js_error)?;
            self.scratch = AudioBuffer::new(ch, frames);
            self.out = AudioBuffer::new(ch, frames);
        }
        self.inner.begin(frames).map_err(js_error)?;
        for (input, gain) in inputs.iter().zip(&gains) {
            let gain = finite("gain", *gain)? as f32;
            decode_into(self.format.sample_format, bytes(input), &mut self.scratch)
                .map_err(js_error)?;
            self.inner.add(&self.scratch, gain).map_err(js_error)?;
        }
        self.inner.finish_into(&mut self.out).map_err(js_error)?;
        let mut buf = vec![0u8; frames * fb];
        self.encoder
            .encode_into(&self.out, &mut buf)
            .map_err(js_error)?;
        Ok(buf.into())
    }

    /// The mixer's format, normalised.
    #[napi(getter)]
    pub fn format(&self) -> String {
        self.format.to_string()
    }
}
