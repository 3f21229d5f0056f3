use super::*;

/// Interleaved PCM decoded into a planar buffer of `channels`.
fn decoded(format: SampleFormat, bytes: &[u8], channels: usize) -> AudioBuffer {
    let mut samples = vec![0.0; bytes.len() / format.bytes_per_sample()];
    assert_eq!(decode_into(format, bytes, &mut samples), samples.len());
    let mut buf = AudioBuffer::new(channels, samples.len() / channels);
    buf.load_interleaved(&samples);
    buf
}

fn round_trip(format: SampleFormat, bytes: &[u8], channels: usize) -> Vec<u8> {
    let buf = decoded(format, bytes, channels);
    let mut out = vec![0u8; bytes.len()];
    let n = encode_into(format, &buf, &mut out, None).unwrap();
    out.truncate(n);
    out
}

#[test]
fn every_16_and_24_bit_value_round_trips_exactly() {
    let mut s16 = Vec::new();
    for v in i16::MIN..=i16::MAX {
        s16.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(round_trip(SampleFormat::S16Le, &s16, 2), s16);
    let be: Vec<u8> = s16.chunks(2).flat_map(|b| [b[1], b[0]]).collect();
    assert_eq!(round_trip(SampleFormat::S16Be, &be, 1), be);
    let mut s24 = Vec::new();
    for v in (-8_388_608i32..8_388_608)
        .step_by(97)
        .chain([-8_388_608, 8_388_607, -1, 0, 1])
    {
        s24.extend_from_slice(&v.to_le_bytes()[..3]);
    }
    assert_eq!(round_trip(SampleFormat::S24Le, &s24, 1), s24);
    let s24be: Vec<u8> = s24.chunks(3).flat_map(|b| [b[2], b[1], b[0]]).collect();
    assert_eq!(round_trip(SampleFormat::S24Be, &s24be, 1), s24be);
}

#[test]
fn endianness_and_24_bit_packing_decode_to_the_same_values() {
    // -2 and 0x123456 in each layout, first channel then second.
    let le16 = [0xFE, 0xFF, 0x56, 0x34];
    let be16 = [0xFF, 0xFE, 0x34, 0x56];
    let le24 = [0xFE, 0xFF, 0xFF, 0x56, 0x34, 0x12];
    let be24 = [0xFF, 0xFF, 0xFE, 0x12, 0x34, 0x56];
    let (mut a, mut b) = ([0f32; 2], [0f32; 2]);
    assert_eq!(decode_into(SampleFormat::S16Le, &le16, &mut a), 2);
    assert_eq!(decode_into(SampleFormat::S16Be, &be16, &mut b), 2);
    assert_eq!(a, b);
    assert_eq!(a, [-2.0 / 32768.0, 0x3456 as f32 / 32768.0]);
    decode_into(SampleFormat::S24Le, &le24, &mut a);
    decode_into(SampleFormat::S24Be, &be24, &mut b);
    assert_eq!(a, b);
    assert_eq!(a, [-2.0 / 8_388_608.0, 0x123456 as f32 / 8_388_608.0]);
}

#[test]
fn s32_keeps_24_significant_bits_and_saturates() {
    let vals = [i32::MIN, -1 << 8, 0, 1 << 8, 0x7FFF_FF00];
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(round_trip(SampleFormat::S32Le, &bytes, 1), bytes);
    let over = AudioBuffer::from_planes(&[&[2.0, -2.0, f32::NAN, f32::INFINITY]]).unwrap();
    let mut out = [0u8; 16];
    encode_into(SampleFormat::S32Le, &over, &mut out, None).unwrap();
    let got: Vec<i32> = out
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got, [i32::MAX, i32::MIN, 0, i32::MAX]);
}

#[test]
fn overload_clamps_instead_of_wrapping() {
    let over = AudioBuffer::from_planes(&[&[1.5, -1.5, 0.99999]]).unwrap();
    let mut out = [0u8; 6];
    encode_into(SampleFormat::S16Le, &over, &mut out, None).unwrap();
    let got: Vec<i16> = out
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(got, [32767, -32768, 32767]);
}

#[test]
fn dither_decorrelates_the_quantisation_error_of_a_quiet_signal() {
    // A sine of 0.3 LSB amplitude disappears without dither and survives (on average) with it.
    let n = 48_000;
    let lsb = 1.0 / 32768.0;
    let sig: Vec<f32> = (0..n)
        .map(|i| 0.3 * lsb * (i as f32 * 2.0 * std::f32::consts::PI * 997.0 / 48_000.0).sin())
        .collect();
    let buf = AudioBuffer::from_planes(&[&sig]).unwrap();
    let mut plain = vec![0u8; n * 2];
    encode_into(SampleFormat::S16Le, &buf, &mut plain, None).unwrap();
    assert!(plain.iter().all(|&b| b == 0));
    let mut enc = Encoder::new(SampleFormat::S16Le, true);
    let mut dithered = vec![0u8; n * 2];
    enc.encode_into(&buf, &mut dithered).unwrap();
    let vals: Vec<f64> = dithered
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]) as f64)
        .collect();
    assert!(vals.iter().all(|v| v.abs() <= 2.0));
    // Correlation with the signal recovers its amplitude: 0.3 LSB within noise.
    let corr: f64 = vals
        .iter()
        .zip(&sig)
        .map(|(v, s)| v * (*s as f64 / lsb as f64))
        .sum::<f64>()
        / sig
            .iter()
            .map(|s| (*s as f64 / lsb as f64).powi(2))
            .sum::<f64>();
    assert!((corr - 1.0).abs() < 0.15, "recovered gain {corr}");
}

#[test]
fn fast_16_bit_encoders_match_the_general_code() {
    let bytes: Vec<u8> = (0..4000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    for f in [SampleFormat::S16Le, SampleFormat::S16Be] {
        for ch in [1, 2] {
            let frames = bytes.len() / (2 * ch);
            let mut fast = decoded(f, &bytes, ch);
            // Out-of-range, NaN and fractional values encode identically too.
            for c in 0..ch {
                for (n, x) in fast.channel_mut(c).iter_mut().enumerate() {
                    *x = match n % 13 {
                        0 => 1.5,
                        1 => f32::NAN,
                        2 => -3.0,
                        3 => 0.123_456,
                        4 => 0.5 / 32_768.0,
                        5 => -0.5 / 32_768.0,
                        6 => 32_767.5 / 32_768.0,
                        7 => -0.0,
                        8 => f32::NEG_INFINITY,
                        9 => 1e-30,
                        _ => *x * 0.77,
                    };
                }
            }
            for isa in Isa::supported() {
                for dither in [false, true] {
                    // Pieces of odd sizes, so the dither batches straddle calls.
                    let (mut a, mut b) = (vec![0u8; bytes.len()], vec![0u8; bytes.len()]);
                    let (mut da, mut db) = (Tpdf::default(), Tpdf::default());
                    let (mut start, mut k) = (0, 0);
                    while start < frames {
                        let n = [1, 7, 16, 33, 250, 3][k % 6].min(frames - start);
                        let mut piece = AudioBuffer::new(ch, n);
                        for c in 0..ch {
                            piece.channel_storage_mut(c)[..n]
                                .copy_from_slice(&fast.channel(c)[start..start + n]);
                        }
                        piece.set_frames(n);
                        let at = start * ch * 2;
                        let (oa, ob) = (&mut a[at..], &mut b[at..]);
                        if dither {
                            encode_into_with(isa, f, &piece, oa, Some(&mut da)).unwrap();
                            encode_reference(f, &piece, ob, Some(&mut db));
                        } else {
                            encode_into_with(isa, f, &piece, oa, None).unwrap();
                            encode_reference(f, &piece, ob, None);
                        }
                        start += n;
                        k += 1;
                    }
                    assert!(a == b, "{f} x {ch}, {isa:?}, dither {dither}");
                }
            }
        }
    }
}

#[test]
fn partial_samples_are_ignored_and_small_outputs_rejected() {
    let mut out = [9.0f32; 8];
    // 13 bytes of 24-bit audio: four whole samples, the last byte left.
    assert_eq!(decode_into(SampleFormat::S24Le, &[0u8; 13], &mut out), 4);
    assert_eq!(out, [0.0, 0.0, 0.0, 0.0, 9.0, 9.0, 9.0, 9.0]);
    // No more than `out` holds.
    assert_eq!(
        decode_into(SampleFormat::S16Le, &[0u8; 40], &mut out[..3]),
        3
    );
    let mut four = AudioBuffer::new(2, 4);
    four.set_frames(4);
    let mut small = [0u8; 3];
    assert!(encode_into(SampleFormat::S16Le, &four, &mut small, None).is_err());
}

#[test]
fn names_round_trip_and_aliases_resolve() {
    for f in [
        SampleFormat::S16Le,
        SampleFormat::S16Be,
        SampleFormat::S24Le,
        SampleFormat::S24Be,
        SampleFormat::S32Le,
    ] {
        assert_eq!(f.to_string().parse::<SampleFormat>(), Ok(f));
    }
    assert_eq!("L16".parse::<SampleFormat>(), Ok(SampleFormat::S16Be));
    assert_eq!("l24".parse::<SampleFormat>(), Ok(SampleFormat::S24Be));
}

#[test]
fn unknown_names_are_rejected_with_the_name() {
    let err = "u8".parse::<SampleFormat>().unwrap_err();
    assert!(err.to_string().contains("'u8'"));
}

#[test]
fn sizes_match_packed_layouts() {
    assert_eq!(SampleFormat::S16Be.bytes_per_sample(), 2);
    assert_eq!(SampleFormat::S24Le.bytes_per_sample(), 3);
    assert_eq!(SampleFormat::S32Le.bit_depth(), 32);
}
