//! In-process sources over real sockets: a tone written from this test into a memory source
//! plays through a Scream sink (received on 127.0.0.1 and measured), with the stats a network
//! source has; a writer that stalls holds nothing back (the other sink keeps its pace, the
//! stall is counted as an underrun); the handle that adds and removes them from another thread
//! (a decoder's) works while the engine lives.

mod common;

use common::*;
use std::f64::consts::TAU;
use std::time::{Duration, Instant};
use tributary_dsp::SampleFormat;
use tributary_engine::{MemoryFormat, MemoryWriter, PathSpec, SourceStats};

const RATE: u32 = 44_100;

fn format() -> MemoryFormat {
    MemoryFormat {
        sample_rate: RATE,
        channels: 2,
        sample_format: SampleFormat::S16Le,
        float: false,
    }
}

/// Writes `seconds` of a stereo tone (left 1 kHz at `amp`, right 250 Hz at `amp / 2`) as a
/// decoder would: as much as the ring takes, then a short sleep when it is full. With a stall
/// `(at_s, for_s)` it stops writing for `for_s` once `at_s` of audio is written.
fn write_tone(mut w: MemoryWriter, amp: f64, seconds: f64, stall: Option<(f64, f64)>) {
    let rate = f64::from(RATE);
    let total = (seconds * rate) as usize;
    let mut stall = stall.map(|(at, len)| ((at * rate) as usize, Duration::from_secs_f64(len)));
    let mut next = 0;
    while next < total {
        let mut end = total.min(next + 1024);
        if let Some((at, len)) = stall {
            if next >= at {
                std::thread::sleep(len);
                stall = None;
            } else {
                end = end.min(at);
            }
        }
        let pcm: Vec<u8> = (next..end)
            .flat_map(|i| {
                let t = i as f64 / rate;
                let l = (amp * (TAU * 1000.0 * t).sin() * 32_767.0) as i16;
                let r = (amp / 2.0 * (TAU * 250.0 * t).sin() * 32_767.0) as i16;
                [l.to_le_bytes(), r.to_le_bytes()].concat()
            })
            .collect();
        let n = w.write(&pcm);
        let wanted = end - next;
        next += n;
        if n < wanted {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Left and right of the received Scream packets, from the first audible one on.
fn audio_of(packets: &[(Instant, Vec<u8>)]) -> [Vec<f64>; 2] {
    let bytes: Vec<u8> = packets.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
    let [l, r] = split_s16(&bytes, false);
    let first = l
        .iter()
        .position(|s| s.abs() > 1e-3)
        .expect("the tone arrives");
    [l[first..].to_vec(), r[first..].to_vec()]
}

fn source<'a>(stats: &'a [SourceStats], id: &str) -> &'a SourceStats {
    stats
        .iter()
        .find(|s| s.id == id)
        .expect("the source is in the stats")
}

#[test]
fn an_in_process_tone_plays_through_a_scream_sink_resampled_at_its_level() {
    let _serial = serial();
    let mut engine = engine();
    let (rx, port) = receiver();
    let writer = engine.add_memory_source("mem", format(), 200).unwrap();
    // Volume, EQ (flat bands still run the stage) and a delay: the path stages a network
    // source's path has, from 44.1 kHz to the sink's 48 kHz.
    let path = PathSpec {
        volume: 0.5,
        delay_ms: 40.0,
        ..PathSpec::new("mem")
    };
    play(&mut engine, vec![scream_sink("out", port, vec![path])]);
    // The writer goes on for a second after the 2.5 s heard, so the statistics below are read
    // while it still feeds the source (read once it had stopped, the source's buffer was found
    // draining, 4 ms, on a loaded machine).
    let writing = std::thread::spawn(move || write_tone(writer, 0.8, 3.5, None));
    let packets = collect(&rx, 2.5);
    let stats = engine.stats();
    writing.join().unwrap();
    let [l, r] = audio_of(&packets);
    assert!(
        l.len() > 72_000,
        "at least 1.5 s of the tone: {} samples",
        l.len()
    );
    // 1.5 s from 0.1 s after the first sound on: the tone, resampled, at half its level.
    let (l, r) = (&l[4_800..76_800], &r[4_800..76_800]);
    let (fl, rl) = tone(l, 48_000.0);
    let (fr, rr) = tone(r, 48_000.0);
    println!("left {fl:.2} Hz rms {rl:.4}, right {fr:.2} Hz rms {rr:.4}");
    assert!((fl - 1000.0).abs() < 1.0, "left {fl} Hz");
    assert!((fr - 250.0).abs() < 0.5, "right {fr} Hz");
    assert!((rl - 0.4 / 2f64.sqrt()).abs() < 0.01, "left rms {rl}");
    assert!((rr - 0.2 / 2f64.sqrt()).abs() < 0.01, "right rms {rr}");
    assert!(longest_silence(l) < 10, "a gap in the tone");
    let mem = source(&stats.sources, "mem");
    println!("{mem:?}");
    assert_eq!(mem.format.as_deref(), Some("memory s16le 44100 Hz 2 ch"));
    // Moved on the engine's wake-ups: every 6 ms sink tick at least, 2.5 s of them.
    assert!(mem.packets > 300, "{} moves", mem.packets);
    assert_eq!(mem.bytes % 4, 0);
    assert!(mem.bytes >= 4 * 44_100 * 2, "{} bytes", mem.bytes);
    assert_eq!(
        (mem.lost, mem.late, mem.malformed, mem.underruns),
        (0, 0, 0, 0)
    );
    assert!(mem.drift_ppm.abs() < 20.0, "{} ppm", mem.drift_ppm);
    assert!(
        (5.0..100.0).contains(&mem.buffer_ms),
        "{} ms",
        mem.buffer_ms
    );
    assert_eq!(stats.sinks[0].underruns, 0);
    assert!(engine.remove_memory_source("mem").unwrap());
    assert!(!engine.remove_memory_source("mem").unwrap());
    engine.stop();
}

#[test]
fn a_stalled_writer_holds_nothing_back_and_its_underrun_is_counted() {
    let _serial = serial();
    let mut engine = engine();
    let (rx_net, port_net) = receiver();
    let (rx_mem, port_mem) = receiver();
    let writer = engine.add_memory_source("mem", format(), 50).unwrap();
    let to = play(
        &mut engine,
        vec![
            scream_sink("net", port_net, vec![local_pc()]),
            scream_sink("mem", port_mem, vec![PathSpec::new("mem")]),
        ],
    );
    let sender = std::thread::spawn(move || send_scream_tone(to, 3.0, [(500.0, 0.5); 2]));
    // One second, then nothing for 0.4 s (the ring holds 50 ms), then 1.5 s more.
    let writing = std::thread::spawn(move || write_tone(writer, 0.5, 2.5, Some((1.0, 0.4))));
    let other = std::thread::spawn(move || collect(&rx_mem, 3.0));
    let packets = collect(&rx_net, 3.0);
    sender.join().unwrap();
    writing.join().unwrap();
    let mem_packets = other.join().unwrap();
    // The other sink kept its pace: every 6 ms packet sent, none held back by the stall (a
    // loaded machine may delay one by some tens of ms, the stall would be 400), its tone whole.
    let gaps: Vec<f64> = packets
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).as_secs_f64() * 1000.0)
        .collect();
    let worst = gaps.iter().copied().fold(0.0, f64::max);
    println!(
        "net sink: {} packets, longest gap {worst:.1} ms",
        packets.len()
    );
    assert!(packets.len() > 470, "{} packets in 3 s", packets.len());
    assert!(
        worst < 150.0,
        "a {worst} ms gap in the other sink's packets"
    );
    let [l, _] = audio_of(&packets);
    assert!(
        longest_silence(&l[..96_000]) < 10,
        "a gap in the other sink's tone"
    );
    // The stalled source's sink sent its packets too (silence while the writer stalled).
    assert!(
        mem_packets.len() > 470,
        "{} packets in 3 s",
        mem_packets.len()
    );
    let [m, _] = audio_of(&mem_packets);
    let silent = longest_silence(&m) as f64 / 48.0;
    println!("memory sink: longest silence {silent:.1} ms");
    assert!(
        (250.0..450.0).contains(&silent),
        "{silent} ms of silence for the stall"
    );
    let stats = engine.stats();
    let (net, mem) = (source(&stats.sources, "pc"), source(&stats.sources, "mem"));
    println!("net {net:?}\nmem {mem:?}");
    assert_eq!(mem.underruns, 1, "the stall is one underrun");
    assert!(
        (250.0..450.0).contains(&mem.silence_ms),
        "{} ms",
        mem.silence_ms
    );
    assert_eq!((net.underruns, net.silence_ms), (0, 0.0));
    let sink = |id: &str| stats.sinks.iter().find(|s| s.id == id).unwrap().underruns;
    assert_eq!((sink("net"), sink("mem")), (0, 1));
    engine.stop();
}

#[test]
fn the_memory_sources_handle_works_from_another_thread_and_not_after_the_engine() {
    let _serial = serial();
    let engine = engine();
    let handle = engine.memory_sources();
    let decoded = MemoryFormat {
        float: true,
        ..format()
    };
    let h = handle.clone();
    let added = std::thread::spawn(move || h.add("dec", decoded, 100).map(|w| w.format()));
    assert_eq!(added.join().unwrap().unwrap(), decoded);
    let taken = handle.add("dec", format(), 100).err().unwrap();
    assert_eq!(taken.0, "id: memory source 'dec' exists already");
    assert!(handle.remove("dec").unwrap());
    assert!(!engine.remove_memory_source("dec").unwrap());
    drop(engine);
    let gone = handle.add("dec", format(), 100).err().unwrap();
    assert_eq!(gone.0, "the engine is stopped");
    assert_eq!(
        handle.remove("dec").err().unwrap().0,
        "the engine is stopped"
    );
}
