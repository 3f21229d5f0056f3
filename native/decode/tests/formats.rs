//! Every format URL playback decodes, from files ffmpeg makes now: the right rate, channels and
//! duration (within the codec's padding), the tone at 1000 Hz within 1 Hz on each channel, each
//! channel at its level within 0.5 dB; the same samples whether the bytes arrive at once or in
//! small random pieces (through the real input queue, from another thread).

mod common;

use common::*;
use std::f64::consts::PI;
use std::io::Cursor;
use std::sync::Arc;
use tributary_decode::input::Input;
use tributary_decode::DecodeOptions;

/// Longest a codec's priming and padding may lengthen or shorten the 2 s (AAC: 1024 frames of
/// priming plus the last frame's padding; MP3: the encoder delay the LAME header does not
/// cover; Opus: up to a 20 ms packet).
const PADDING_S: f64 = 0.06;

/// The phase of the tone at frame 0 (radians, 0 to 2 pi) of a sine measured on `x`, which
/// starts at frame `from`.
fn phase_of(x: &[f64], from: usize, rate: f64) -> f64 {
    let (mut sin, mut cos) = (0.0, 0.0);
    for (i, v) in x.iter().enumerate() {
        let w = 2.0 * PI * TONE_HZ * (from + i) as f64 / rate;
        sin += v * w.sin();
        cos += v * w.cos();
    }
    cos.atan2(sin).rem_euclid(2.0 * PI)
}

#[test]
fn each_format_decodes_to_the_tone_at_its_rate_length_and_level() {
    let mut report = Vec::new();
    for f in &FORMATS {
        let (info, samples, skipped) = decode_all(Cursor::new(tone(f)), &DecodeOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.ext));
        assert_eq!(info.codec, f.codec, "{}", f.ext);
        assert_eq!(info.sample_rate, f.rate, "{}", f.ext);
        assert_eq!(info.channels, 2, "{}", f.ext);
        assert_eq!(info.bit_depth, f.bit_depth, "{}", f.ext);
        assert_eq!(skipped, 0, "{}", f.ext);
        let rate = f64::from(info.sample_rate);
        let seconds = samples.len() as f64 / 2.0 / rate;
        assert!(
            (seconds - SECONDS).abs() <= PADDING_S,
            "{}: {seconds:.4} s decoded",
            f.ext
        );
        // The middle second: clear of encoder start-up and the end.
        let middle = (rate * 0.5) as usize..(rate * 1.5) as usize;
        // Where the audio starts: the tone's phase there is 0 when the decoder dropped exactly
        // the encoder's delay (MP3's LAME header, Opus's pre-skip, Vorbis's granules). AAC's
        // priming is not dropped (symphonia 0.5 ignores the M4A edit list): 1024 frames late.
        let phase = phase_of(&channel(&samples, 2, 0)[middle.clone()], middle.start, rate);
        let late = if f.ext == "m4a" { 1024.0 } else { 0.0 };
        let want = (-2.0 * PI * TONE_HZ * late / rate).rem_euclid(2.0 * PI);
        let off = (phase - want + PI).rem_euclid(2.0 * PI) - PI;
        assert!(
            off.abs() < 0.02,
            "{}: the tone's phase is {off:.3} rad off",
            f.ext
        );
        let mut line = format!("{:5} {:.4} s", f.ext, seconds);
        for (c, amp) in [(0, LEFT), (1, RIGHT)] {
            let x = &channel(&samples, 2, c)[middle.clone()];
            let hz = precise_frequency(x, rate).unwrap();
            let db = rms_db(x);
            line += &format!("  ch{c}: {hz:.3} Hz {db:.2} dB (want {:.2})", sine_db(amp));
            assert!((hz - TONE_HZ).abs() < 1.0, "{} ch{c}: {hz} Hz", f.ext);
            assert!(
                (db - sine_db(amp)).abs() < 0.5,
                "{} ch{c}: {db} dBFS",
                f.ext
            );
        }
        report.push(line);
    }
    // The measured figures, for the record (`cargo test -- --nocapture`).
    println!("{}", report.join("\n"));
}

#[test]
fn random_pieces_decode_to_the_same_samples_as_one_piece() {
    for (i, f) in FORMATS.iter().enumerate() {
        let bytes = tone(f);
        let whole = decode_all(Cursor::new(bytes.clone()), &DecodeOptions::default()).unwrap();
        // Through the reader symphonia pulls from: reads of 1-700 bytes.
        let pieces = decode_all(
            Pieces::new(bytes.clone(), 700, i as u64 + 1),
            &Default::default(),
        )
        .unwrap();
        assert!(whole.1 == pieces.1, "{}: pieces decode differently", f.ext);
        // Through the input queue: chunks of 1-3000 bytes pushed from another thread into a
        // 4 KiB queue (the producer retries what does not fit).
        let input = Input::new(4096);
        let producer = Arc::clone(&input);
        let feeder = std::thread::spawn(move || {
            let mut p = Pieces::new(Vec::new(), 3000, 99 + i as u64);
            let mut at = 0;
            let mut refused = 0;
            while at < bytes.len() {
                let end = (at + p.next_len()).min(bytes.len());
                while !producer.push(&bytes[at..end]) {
                    refused += 1;
                    std::thread::yield_now();
                }
                at = end;
            }
            producer.finish();
            refused
        });
        let queued = decode_all(input.reader(), &Default::default()).unwrap();
        let refused = feeder.join().unwrap();
        assert!(
            whole.1 == queued.1,
            "{}: queued chunks decode differently",
            f.ext
        );
        assert!(
            refused > 0,
            "{}: the bounded queue never pushed back",
            f.ext
        );
    }
}

#[test]
fn max_seconds_ends_the_stream_there() {
    let f = &FORMATS[1];
    let options = DecodeOptions {
        max_seconds: Some(0.5),
        ..Default::default()
    };
    let (info, samples, _) = decode_all(Cursor::new(tone(f)), &options).unwrap();
    assert_eq!(samples.len(), info.sample_rate as usize / 2 * 2);
}

#[test]
fn an_m4a_with_its_index_after_its_audio_is_read_whole_then_decoded() {
    let late = encode("tone-late.m4a", SOURCE, &["-c:a", "aac", "-b:a", "192k"]);
    let moov = late.windows(4).position(|w| w == b"moov").unwrap();
    let mdat = late.windows(4).position(|w| w == b"mdat").unwrap();
    assert!(mdat < moov, "ffmpeg put the index first");
    let fast = decode_all(Cursor::new(tone(&FORMATS[5])), &Default::default()).unwrap();
    let (info, samples, _) = decode_all(Pieces::new(late, 3000, 7), &Default::default()).unwrap();
    assert_eq!((info.sample_rate, info.channels), (44_100, 2));
    assert!(
        samples == fast.1,
        "the same audio as the file with its index first"
    );
}
