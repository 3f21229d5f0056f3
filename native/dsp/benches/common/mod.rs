//! Inputs the benches share.

use tributary_dsp::AudioBuffer;

/// `channels` planes of `frames` samples: sines of different pitches at 0.3.
pub fn signal(channels: usize, frames: usize) -> AudioBuffer {
    let planes: Vec<Vec<f32>> = (0..channels)
        .map(|c| {
            (0..frames)
                .map(|n| 0.3 * ((n * (c + 3)) as f32 * 0.01).sin())
                .collect()
        })
        .collect();
    let refs: Vec<&[f32]> = planes.iter().map(|p| p.as_slice()).collect();
    AudioBuffer::from_planes(&refs).unwrap()
}

/// Every band active: alternately +4.1 dB and -4.4 dB.
pub fn all_bands() -> [f32; 18] {
    std::array::from_fn(|b| if b % 2 == 0 { 1.6 } else { 0.6 })
}
