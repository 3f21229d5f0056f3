//! Proves the real-time calls allocate nothing: a counting global allocator records every
//! allocation made on this test's thread while counting is switched on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tributary_dsp::eq::FLAT;
use tributary_dsp::{
    decode_into, AudioBuffer, Chain, ChainConfig, Encoder, Equalizer, Mixer, Resampler,
    SampleFormat, StreamFormat,
};

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only bumps a thread-local counter besides.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.with(|on| on.get()) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ON.with(|on| on.get()) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    f();
    ON.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

fn fmt(s: &str) -> StreamFormat {
    s.parse().unwrap()
}

#[test]
fn process_calls_allocate_nothing() {
    let input: Vec<u8> = (0..48_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let mut configs = Vec::new();
    let mut full = ChainConfig::new(fmt("s16le:44100:2"), fmt("s24le:48000:6:5.1"));
    full.eq = [1.3; 18];
    full.volume = 0.7;
    full.delay_ms = 25.0;
    full.normalize = true;
    configs.push(full);
    configs.push(ChainConfig::new(fmt("s32le:48000:2"), fmt("s32le:48000:2")));
    let mut drift = ChainConfig::new(fmt("s24be:96000:8"), fmt("s16be:96000:2"));
    drift.drift_correction = true;
    configs.push(drift);
    for cfg in configs {
        let mut chain = Chain::new(&cfg).unwrap();
        let mut out = vec![0u8; chain.max_output_bytes(input.len()) + 64];
        let mut planar = AudioBuffer::new(
            cfg.output.channels(),
            chain.max_output_frames(input.len()) + 64,
        );
        let n = allocations_during(|| {
            for len in [0usize, 1, 3, 1152, 4095, 20_000] {
                chain.process_into(&input[..len], &mut out).unwrap();
                chain.process_to_planar(&input[..len], &mut planar).unwrap();
            }
            // Live changes that only retarget ramps are allocation-free too.
            chain.set_volume(0.2).unwrap();
            chain.set_eq(&[0.5; 18]).unwrap();
            chain.set_normalize(false);
            if cfg.drift_correction || cfg.input.rate != cfg.output.rate {
                chain.set_ratio_adjust(0.01).unwrap();
            }
            chain.process_into(&input, &mut out).unwrap();
        });
        assert_eq!(n, 0, "{} -> {}: {n} allocations", cfg.input, cfg.output);
    }
}

#[test]
fn kernels_allocate_nothing() {
    let mut r = Resampler::new(48_000, 44_100, 2, 512).unwrap();
    let mut eq = Equalizer::new(48_000, 2, &FLAT).unwrap();
    let mut mixer = Mixer::new(2, 48_000, 2048).unwrap();
    let mut enc = Encoder::new(SampleFormat::S16Le, true);
    let mut a = AudioBuffer::new(2, 2048);
    let mut b = AudioBuffer::new(2, r.max_output_frames(2048));
    let mut mixed = AudioBuffer::new(2, 2048);
    let bytes = vec![7u8; 2048 * 4];
    let mut out = vec![0u8; 2048 * 4];
    let n = allocations_during(|| {
        decode_into(SampleFormat::S16Le, &bytes, &mut a).unwrap();
        r.process_into(&a, &mut b).unwrap();
        eq.set_gains(&[1.7; 18]).unwrap();
        eq.process(&mut b).unwrap();
        mixer.mix_into(&[&a, &b], &mut mixed).unwrap();
        enc.encode_into(&mixed, &mut out).unwrap();
    });
    assert_eq!(n, 0);
}
