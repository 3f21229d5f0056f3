//! Proves the real-time calls allocate nothing: a counting global allocator records every
//! allocation made on this test's thread while counting is switched on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tributary_dsp::eq::FLAT;
use tributary_dsp::{decode_into, AudioBuffer, Encoder, Equalizer, Mixer, Resampler, SampleFormat};

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
    let mut decoded = vec![0.0f32; 2048 * 2];
    let mut out = vec![0u8; 2048 * 4];
    let n = allocations_during(|| {
        decode_into(SampleFormat::S16Le, &bytes, &mut decoded);
        a.load_interleaved(&decoded);
        r.process_into(&a, &mut b).unwrap();
        eq.set_gains(&[1.7; 18]).unwrap();
        eq.process(&mut b).unwrap();
        mixer.mix_into(&[&a, &b], &mut mixed).unwrap();
        enc.encode_into(&mixed, &mut out).unwrap();
    });
    assert_eq!(n, 0);
}
