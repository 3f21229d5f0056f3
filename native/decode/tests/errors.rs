//! Input that is not playable gets an error naming the reason, never a panic: HTML served as
//! audio, nothing at all, a file cut short (in its headers, or in its audio), a codec or a
//! format the engine does not play, an M4A that cannot be read as it arrives. A damaged packet
//! in the middle is skipped and counted, and the rest plays.

mod common;

use common::*;
use std::io::Cursor;
use tributary_decode::{DecodeError, DecodeOptions};

fn error_of(bytes: Vec<u8>, hint: Option<&str>) -> DecodeError {
    let options = DecodeOptions {
        hint: hint.map(str::to_owned),
        ..Default::default()
    };
    match decode_all(Cursor::new(bytes), &options) {
        Ok((info, samples, _)) => panic!("decoded {} samples of {info:?}", samples.len()),
        Err(e) => e,
    }
}

fn format(ext: &str) -> &'static Format {
    FORMATS.iter().find(|f| f.ext == ext).unwrap()
}

#[test]
fn html_is_not_audio() {
    let page = "<!doctype html><html><head><title>404 Not Found</title></head>\
                <body><h1>Not Found</h1><p>The requested URL was not found.</p></body></html>\n";
    let html = page.repeat(200).into_bytes();
    let len = html.len() as u64;
    let e = error_of(html, Some("audio/mpeg"));
    assert_eq!(
        e,
        DecodeError::NotAudio {
            probed: len,
            hint: Some("audio/mpeg".into())
        }
    );
    assert_eq!(
        e.to_string(),
        format!("not audio: no known format found in the first {len} bytes (expected audio/mpeg)")
    );
}

#[test]
fn empty_input() {
    let e = error_of(Vec::new(), None);
    assert_eq!(e, DecodeError::Empty);
    assert_eq!(e.to_string(), "not audio: the input is empty");
}

#[test]
fn a_file_cut_in_its_headers() {
    let mut flac = tone(format("flac"));
    flac.truncate(60);
    let e = error_of(flac, None);
    assert!(matches!(e, DecodeError::Truncated { at: 60, .. }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("truncated: the input ended after 60 bytes"),
        "{e}"
    );
}

#[test]
fn a_file_cut_in_its_audio_plays_what_arrived_then_says_so() {
    for ext in ["flac", "wav"] {
        let mut bytes = tone(format(ext));
        bytes.truncate(bytes.len() / 2);
        let mut d =
            tributary_decode::Decoder::open(Cursor::new(bytes), &Default::default()).unwrap();
        let err = loop {
            match d.next_block() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("{ext}: ended without an error"),
                Err(e) => break e,
            }
        };
        // Half the bytes (headers and padding included) hold a little under half the audio.
        let played = d.decoded_frames() as f64 / 44_100.0;
        assert!(
            played > 0.75 && played < 1.01,
            "{ext}: {played} s decoded before the end"
        );
        let DecodeError::EndedEarly {
            decoded_s,
            declared_s,
        } = err
        else {
            panic!("{ext}: {err:?}")
        };
        assert_eq!(decoded_s, played);
        assert!((declared_s - SECONDS).abs() < 0.01, "{ext}: {declared_s}");
        let text = format!(
            "truncated: the input ended after {played:.2} s of the 2.00 s its header declares"
        );
        assert_eq!(err.to_string(), text);
    }
}

#[test]
fn a_corrupt_packet_in_the_middle_is_skipped_and_counted() {
    let mut mp3 = tone(format("mp3"));
    // The first MPEG frame header past the middle; its side information (main_data_begin
    // first) overwritten with ones: the frame refers to bits that never came.
    let sync = (mp3.len() / 2..mp3.len() - 4)
        .find(|&i| mp3[i] == 0xff && mp3[i + 1] == 0xfb)
        .expect("an MPEG-1 Layer III frame header");
    mp3[sync + 4..sync + 4 + 32].fill(0xff);
    let (info, samples, skipped) = decode_all(Cursor::new(mp3), &Default::default()).unwrap();
    assert!(skipped >= 1, "nothing was skipped");
    let seconds = samples.len() as f64 / 2.0 / 44_100.0;
    // One or two frames (26 ms each) are lost, the rest plays.
    assert!(
        (SECONDS - seconds) < 0.1 && seconds < SECONDS + 0.06,
        "{seconds} s decoded"
    );
    let left = channel(&samples, 2, 0);
    let hz = precise_frequency(&left[..22_050], f64::from(info.sample_rate)).unwrap();
    assert!((hz - TONE_HZ).abs() < 1.0, "{hz} Hz");
}

#[test]
fn formats_the_engine_does_not_play() {
    let ten = encode(
        "ten.wav",
        "aevalsrc=0|0|0|0|0|0|0|0|0|0:s=8000:d=0.2",
        &["-c:a", "pcm_s16le"],
    );
    let e = error_of(ten, None);
    assert_eq!(
        e,
        DecodeError::TooManyChannels {
            channels: 10,
            max: 8
        }
    );
    assert_eq!(e.to_string(), "unsupported: 10 channels (at most 8)");
    let slow = encode(
        "slow.wav",
        "aevalsrc=0:s=4000:d=0.2",
        &["-c:a", "pcm_s16le"],
    );
    let e = error_of(slow, None);
    assert_eq!(
        e.to_string(),
        "unsupported: sample rate 4000 Hz (outside 8000-384000)"
    );
    let alac = encode(
        "alac.m4a",
        "aevalsrc=0:s=44100:d=0.2",
        &["-c:a", "alac", "-movflags", "+faststart"],
    );
    assert_eq!(error_of(alac, None).to_string(), "unsupported codec: ALAC");
}

#[test]
fn an_m4a_cut_before_its_index() {
    let late = encode("late.m4a", "aevalsrc=0:s=44100:d=0.5", &["-c:a", "aac"]);
    let cut = late.len() * 3 / 4;
    let e = error_of(late[..cut].to_vec(), None);
    assert_eq!(
        e.to_string(),
        format!(
            "truncated: the input ended after {cut} bytes, before the MP4/M4A index (moov atom)"
        )
    );
    let options = tributary_decode::DecodeOptions {
        mp4_max_bytes: Some(1000),
        ..Default::default()
    };
    let e = decode_all(std::io::Cursor::new(late), &options)
        .err()
        .unwrap();
    assert!(e.to_string().contains("is over 1000 bytes"), "{e}");
}
