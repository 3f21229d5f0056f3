//! One block of `tributary render` as the binding runs it: interleaved PCM decoded as a source's
//! packets are, one path of the engine offline (`graph::preview`), the sink's encoding. Shared by
//! the `path` and `instructions` benches (`#[path]`).

use tributary_dsp::{decode_into, AudioBuffer, Encoder, StreamFormat};
use tributary_engine::graph::preview::Preview;
use tributary_engine::limits::EQ_BANDS;
use tributary_engine::{PathSpec, SinkProtocol, SinkSpec};

/// Every band active: alternately +4.1 dB and -4.4 dB.
pub fn all_bands() -> [f32; EQ_BANDS] {
    std::array::from_fn(|b| if b % 2 == 0 { 1.6 } else { 0.6 })
}

pub struct RenderJob {
    input: StreamFormat,
    bytes: Vec<u8>,
    decoded: Vec<f32>,
    preview: Preview,
    rendered: AudioBuffer,
    encoder: Encoder,
    encoded: Vec<u8>,
}

impl RenderJob {
    /// `frames` input frames per block (of a two-tone signal), from `input` to `output`
    /// (`FORMAT:RATE:CHANNELS`) with `eq` and `volume`.
    pub fn new(input: &str, output: &str, eq: [f32; EQ_BANDS], volume: f32, frames: usize) -> Self {
        let input: StreamFormat = input.parse().unwrap();
        let output: StreamFormat = output.parse().unwrap();
        let path = PathSpec {
            eq,
            volume,
            ..PathSpec::new("bench")
        };
        let sink = SinkSpec::new(
            "bench",
            SinkProtocol::Scream,
            output.rate,
            output.sample_format.bit_depth() as u8,
            output.layout,
        );
        let preview = Preview::new(&path, input.rate, input.layout, &sink).unwrap();
        let channels = input.channels();
        let bytes: Vec<u8> = (0..frames * channels)
            .flat_map(|i| {
                let t = (i / channels) as f32 / input.rate as f32;
                let x = 0.3 * (6_283.2 * 997.0 * t / 1000.0).sin()
                    + 0.2 * (6_283.2 * 5_512.0 * t / 1000.0).sin();
                ((x * 32_767.0) as i16).to_le_bytes()
            })
            .collect();
        let max_out = preview.max_output_frames(frames);
        Self {
            decoded: vec![0.0; frames * channels],
            rendered: AudioBuffer::new(output.channels(), max_out),
            encoded: vec![0u8; max_out * output.frame_bytes()],
            encoder: Encoder::new(output.sample_format, false),
            preview,
            bytes,
            input,
        }
    }

    /// Input bytes per block.
    pub fn input_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Runs one block of `bytes`; returns the bytes written.
    pub fn run(&mut self, bytes: &[u8]) -> usize {
        let n = decode_into(self.input.sample_format, bytes, &mut self.decoded);
        self.preview
            .process_into(&self.decoded[..n], &mut self.rendered)
            .unwrap();
        self.encoder
            .encode_into(&self.rendered, &mut self.encoded)
            .unwrap()
    }
}
