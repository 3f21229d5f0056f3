//! Interleaved PCM <-> interleaved f32, for the source timeline (an interleaved ring; the DSP
//! core's `decode_into` writes planar buffers for its processors). Full scale is +-1.0;
//! encoding clamps.

use tributary_dsp::sample_format::SampleFormat;

/// Decodes whole samples of `bytes` into `out`; returns how many samples were written
/// (`min(bytes / bytes_per_sample, out.len())`).
pub fn decode_into(format: SampleFormat, bytes: &[u8], out: &mut [f32]) -> usize {
    let width = format.bytes_per_sample();
    let n = (bytes.len() / width).min(out.len());
    let src = bytes[..n * width].chunks_exact(width);
    for (dst, b) in out[..n].iter_mut().zip(src) {
        *dst = match format {
            SampleFormat::S16Le => f32::from(i16::from_le_bytes([b[0], b[1]])) / 32_768.0,
            SampleFormat::S16Be => f32::from(i16::from_be_bytes([b[0], b[1]])) / 32_768.0,
            SampleFormat::S24Le => {
                (i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8) as f32 / 8_388_608.0
            }
            SampleFormat::S24Be => {
                (i32::from_be_bytes([b[0], b[1], b[2], 0]) >> 8) as f32 / 8_388_608.0
            }
            SampleFormat::S32Le => {
                (f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])) / 2_147_483_648.0) as f32
            }
        };
    }
    n
}

/// Encodes `samples` into `out`; returns the bytes written (`samples * width`, limited by
/// `out`).
pub fn encode_into(format: SampleFormat, samples: &[f32], out: &mut [u8]) -> usize {
    let width = format.bytes_per_sample();
    let n = samples.len().min(out.len() / width);
    for (s, b) in samples[..n].iter().zip(out.chunks_exact_mut(width)) {
        let x = if s.is_finite() {
            s.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        match format {
            SampleFormat::S16Le | SampleFormat::S16Be => {
                let v = (f64::from(x) * 32_768.0).round().clamp(-32_768.0, 32_767.0) as i16;
                b.copy_from_slice(&if format == SampleFormat::S16Le {
                    v.to_le_bytes()
                } else {
                    v.to_be_bytes()
                });
            }
            SampleFormat::S24Le | SampleFormat::S24Be => {
                let v = (f64::from(x) * 8_388_608.0)
                    .round()
                    .clamp(-8_388_608.0, 8_388_607.0) as i32;
                let le = v.to_le_bytes();
                if format == SampleFormat::S24Le {
                    b.copy_from_slice(&le[..3]);
                } else {
                    b.copy_from_slice(&[le[2], le[1], le[0]]);
                }
            }
            SampleFormat::S32Le => {
                let v = (f64::from(x) * 2_147_483_648.0)
                    .round()
                    .clamp(-2_147_483_648.0, 2_147_483_647.0) as i32;
                b.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    n * width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_round_trips_within_one_lsb() {
        let samples = [0.0f32, 0.5, -0.5, 0.999, -1.0, 0.123_456];
        for format in [
            SampleFormat::S16Le,
            SampleFormat::S16Be,
            SampleFormat::S24Le,
            SampleFormat::S24Be,
            SampleFormat::S32Le,
        ] {
            let mut bytes = [0u8; 64];
            let n = encode_into(format, &samples, &mut bytes);
            assert_eq!(n, samples.len() * format.bytes_per_sample());
            let mut back = [0f32; 6];
            assert_eq!(decode_into(format, &bytes[..n], &mut back), 6);
            let lsb = 1.0 / (1u64 << (format.bit_depth() - 1)) as f32;
            for (a, b) in samples.iter().zip(back) {
                assert!((a - b).abs() <= lsb, "{format}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn byte_order_matches_the_names() {
        let mut b = [0u8; 3];
        encode_into(SampleFormat::S16Be, &[0.5], &mut b);
        assert_eq!(&b[..2], &[0x40, 0x00]);
        encode_into(SampleFormat::S24Be, &[-1.0], &mut b);
        assert_eq!(b, [0x80, 0, 0]);
        encode_into(SampleFormat::S16Le, &[2.0], &mut b);
        assert_eq!(&b[..2], &[0xff, 0x7f]);
    }
}
