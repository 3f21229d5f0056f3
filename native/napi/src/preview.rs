//! `PathPreview`: a path of the audio engine run offline over PCM (`tributary render`). The
//! engine's own code (`tributary_engine::graph::preview`): what a sink's mixer gets from a path
//! with these settings. Only converts types: bytes in and out, the formats, the settings.

use napi::bindgen_prelude::{Uint8ArraySlice, Unknown};
use napi_derive::napi;
use tributary_dsp::{decode_into, AudioBuffer, Encoder, StreamFormat};
use tributary_engine::graph::preview::Preview;
use tributary_engine::{PathSpec, SinkProtocol, SinkSpec};

use crate::convert::{bytes, invalid, js_error, pcm, stream_format, PathSettings};

/// How to build a preview. Formats are `FORMAT:RATE:CHANNELS[:LAYOUT]` (as `parseFormat` reads
/// them); the output's rate and layout are the sink's.
#[napi(object)]
pub struct PathPreviewOptions {
    /// The source's stream format.
    pub input: String,
    /// The sink's stream format.
    pub output: String,
    /// Volume 0.0-1.0 (default 1).
    pub volume: Option<f64>,
    /// 18 band gains b1..b18, each 0.0-2.0 with 1.0 flat.
    pub eq: Option<Vec<f64>>,
    /// Delay in ms (default 0): silence before the input, as a path plays it behind the source.
    pub delay_ms: Option<f64>,
    /// The sink's loudness normalisation (default off).
    pub normalize: Option<bool>,
    /// TPDF dither when the output has fewer bits than the input (default on; a sink never
    /// dithers: off gives exactly what it sends).
    pub dither: Option<bool>,
}

/// A path of the engine (conversion to the sink's rate on the source's channels, then channel
/// matrix, EQ, volume, normalisation) over interleaved PCM, offline.
#[napi]
pub struct PathPreview {
    preview: Preview,
    input: StreamFormat,
    output: StreamFormat,
    encoder: Encoder,
    /// The input decoded (interleaved), as a source's packets are.
    decoded: Vec<f32>,
    rendered: AudioBuffer,
}

#[napi]
impl PathPreview {
    #[napi(constructor)]
    pub fn new(options: PathPreviewOptions) -> napi::Result<Self> {
        let input = stream_format("input", &options.input)?;
        let output = stream_format("output", &options.output)?;
        let settings =
            PathSettings::parse(options.volume, options.eq.as_deref(), options.delay_ms)?;
        let mut path = PathSpec::new("preview");
        path.volume = settings.volume.unwrap_or(path.volume);
        path.eq = settings.eq.unwrap_or(path.eq);
        path.delay_ms = settings.delay_ms.unwrap_or(path.delay_ms);
        let mut sink = SinkSpec::new(
            "preview",
            SinkProtocol::Scream,
            output.rate,
            output.sample_format.bit_depth() as u8,
            output.layout,
        );
        sink.normalize = options.normalize.unwrap_or(false);
        let preview = Preview::new(&path, input.rate, input.layout, &sink)
            .map_err(|e| invalid(e.0.replace("sinks[0].", "").replace("paths[0].", "")))?;
        let dither = options.dither.unwrap_or(true)
            && output.sample_format.bit_depth() < input.sample_format.bit_depth();
        Ok(Self {
            preview,
            encoder: Encoder::new(output.sample_format, dither),
            decoded: Vec::new(),
            rendered: AudioBuffer::new(output.channels(), 0),
            input,
            output,
        })
    }

    /// Runs whole frames of interleaved input PCM into `output` (which must hold
    /// `maxOutputBytes(input.length)`); returns the bytes written. A partial frame at the end
    /// is refused.
    #[napi(
        ts_args_type = "input: Buffer | Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array, output: Buffer | Uint8Array"
    )]
    pub fn process_into(
        &mut self,
        input: Unknown,
        mut output: Uint8ArraySlice,
    ) -> napi::Result<u32> {
        let input = pcm("input", input)?;
        let input = bytes(&input);
        let frame_bytes = self.input.frame_bytes();
        if !input.len().is_multiple_of(frame_bytes) {
            return Err(invalid(format!(
                "input must be whole frames of {frame_bytes} bytes, got {} bytes",
                input.len()
            )));
        }
        let frames = input.len() / frame_bytes;
        let needed = self.max_output_bytes(input.len() as u32) as usize;
        // SAFETY: this synchronous call runs on the JavaScript thread, so no JavaScript code can
        // touch the output view while Rust writes it.
        let output = unsafe { output.as_mut() };
        if output.len() < needed {
            return Err(invalid(format!(
                "output must hold {needed} bytes, has {}",
                output.len()
            )));
        }
        // Buffers grow to the largest call (a render reads blocks of one size).
        self.decoded.resize(frames * self.input.channels(), 0.0);
        let out_frames = self.preview.max_output_frames(frames);
        if self.rendered.capacity() < out_frames {
            self.rendered = AudioBuffer::new(self.output.channels(), out_frames);
        }
        decode_into(self.input.sample_format, input, &mut self.decoded);
        self.preview
            .process_into(&self.decoded, &mut self.rendered)
            .map_err(js_error)?;
        let n = self
            .encoder
            .encode_into(&self.rendered, output)
            .map_err(js_error)?;
        Ok(n as u32)
    }

    /// The most bytes one call with `inputLength` input bytes can write. The output is
    /// time-aligned with the input; the conversion holds back its last few input frames until
    /// more comes (silence after the end flushes them).
    #[napi]
    pub fn max_output_bytes(&self, input_length: u32) -> u32 {
        let frames = input_length as usize / self.input.frame_bytes();
        (self.preview.max_output_frames(frames) * self.output.frame_bytes()) as u32
    }

    /// The input format, normalised (e.g. `s16le:44100:2:stereo`).
    #[napi(getter)]
    pub fn input_format(&self) -> String {
        self.input.to_string()
    }

    /// The output format, normalised.
    #[napi(getter)]
    pub fn output_format(&self) -> String {
        self.output.to_string()
    }
}
