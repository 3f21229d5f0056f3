//! Capture from ALSA or JACK through cpal: the device's own thread (ALSA's worker, JACK's
//! process callback) hands over what it recorded; the callback pushes it into a lock-free ring
//! (the engine's [`PcmRing`]) and never waits. A full ring (the sending thread fell behind by
//! [`RING_MS`]) drops what did not fit: an overrun, counted. The sending thread takes one
//! packet's payload at a time from the ring, converted to the wire's 16-bit encoding, so the
//! device's clock paces the sender as the sound server's does with PulseAudio.

use cpal::traits::{DeviceTrait, StreamTrait};
use cpal::{BufferSize, SampleFormat, SampleRate, SizedSample, StreamConfig};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tributary_dsp::SampleFormat as WireFormat;
use tributary_engine::ring::PcmRing;
use tributary_engine::runtime::scheduling::raise_current_thread;
use tributary_receive::output::cpal_devices::{
    alsa_device, jack_device, on_error, reason, Direction::Capture,
};

/// How much the ring holds, ms: room for a sending thread that is late this long.
pub const RING_MS: usize = 500;
/// How long the sending thread sleeps when the ring holds less than a packet.
const POLL: Duration = Duration::from_millis(1);
/// ALSA's worker thread's real-time priority (SCHED_FIFO where allowed), as the sender's.
const PRIORITY: i32 = 20;

/// Which API, and its device.
#[derive(Clone, Debug, PartialEq)]
pub enum Api {
    /// An ALSA capture device by the name cpal lists it under (`default`, `jack`, a card's).
    Alsa { device: String },
    /// A JACK client of this name (`_in` appended) connected to the system's capture ports.
    Jack { client: String },
}

/// What the callback counts.
#[derive(Default)]
pub struct DeviceStats {
    /// Callbacks whose frames did not fit in the ring (dropped).
    pub overruns: AtomicU64,
    /// Frames dropped by them.
    pub frames_lost: AtomicU64,
    /// Frames the device handed over.
    pub frames: AtomicU64,
    /// From capture to the callback, as the device reports it, microseconds.
    pub latency_us: AtomicU64,
    /// Errors the device reported (JACK xruns, a failed ALSA read), fatal or not.
    pub device_errors: AtomicU64,
}

/// A device capturing into the ring.
pub struct DeviceCapture {
    _stream: cpal::Stream,
    ring: Arc<PcmRing>,
    failed: Arc<Mutex<Option<String>>>,
    scratch: Vec<f32>,
    what: String,
    pub stats: Arc<DeviceStats>,
}

/// Finds the device, checks that it records `rate` Hz and `channels` (16-bit or float) and
/// starts it; a missing or busy device, no JACK server or a rate it does not record is an error
/// in words.
pub fn open(api: &Api, rate: u32, channels: u16) -> Result<DeviceCapture, String> {
    let (device, what) = match api {
        Api::Alsa { device } => (
            alsa_device(device, Capture)?,
            format!("the ALSA device {device}"),
        ),
        Api::Jack { client } => (
            jack_device(client, Capture)?,
            format!("the JACK server as {client}_in"),
        ),
    };
    let configs: Vec<_> = device
        .supported_input_configs()
        .map_err(|e| format!("cannot open {what}: {}", reason(&e.to_string(), Capture)))?
        .collect();
    let usable = |f: SampleFormat| matches!(f, SampleFormat::F32 | SampleFormat::I16);
    let fits = configs.iter().find(|c| {
        c.channels() == channels
            && usable(c.sample_format())
            && (c.min_sample_rate().0..=c.max_sample_rate().0).contains(&rate)
    });
    let Some(fits) = fits else {
        let formats: Vec<String> = configs
            .iter()
            .filter(|c| c.channels() == channels && usable(c.sample_format()))
            .map(|c| match (c.min_sample_rate().0, c.max_sample_rate().0) {
                (a, b) if a == b => format!("{a} Hz"),
                (a, b) => format!("{a}-{b} Hz"),
            })
            .collect();
        let hint = match api {
            Api::Jack { .. } => format!(": start jackd at -r {rate}, or send at its rate with -r"),
            Api::Alsa { .. } => ": capture through its plughw device or default, or use -r".into(),
        };
        return Err(format!(
            "{what} does not record {rate} Hz {channels} ch 16-bit or float (it records {}){hint}",
            if formats.is_empty() {
                format!("no {channels}-channel format")
            } else {
                formats.join(", ")
            }
        ));
    };
    let config = StreamConfig {
        channels,
        sample_rate: SampleRate(rate),
        buffer_size: BufferSize::Default,
    };
    let samples = rate as usize * RING_MS / 1000 * channels as usize;
    let ring = Arc::new(PcmRing::new(samples));
    let stats = Arc::new(DeviceStats::default());
    let failed = Arc::new(Mutex::new(None));
    let raise = matches!(api, Api::Alsa { .. });
    let on_error = on_error(failed.clone(), stats.clone(), |s: &DeviceStats| {
        &s.device_errors
    });
    let channels = usize::from(channels);
    let built = match fits.sample_format() {
        SampleFormat::I16 => device.build_input_stream(
            &config,
            on_data::<i16>(ring.clone(), channels, raise, stats.clone()),
            on_error,
            None,
        ),
        _ => device.build_input_stream(
            &config,
            on_data::<f32>(ring.clone(), channels, raise, stats.clone()),
            on_error,
            None,
        ),
    };
    let stream =
        built.map_err(|e| format!("cannot open {what}: {}", reason(&e.to_string(), Capture)))?;
    stream
        .play()
        .map_err(|e| format!("{what} does not start: {e}"))?;
    Ok(DeviceCapture {
        _stream: stream,
        ring,
        failed,
        scratch: Vec::new(),
        what,
        stats,
    })
}

/// A sample as f32 in [-1, 1] (the ring's type).
trait ToF32: SizedSample + Send + 'static {
    fn to_f32(self) -> f32;
}

impl ToF32 for f32 {
    fn to_f32(self) -> f32 {
        self
    }
}

impl ToF32 for i16 {
    fn to_f32(self) -> f32 {
        f32::from(self) / 32768.0
    }
}

/// The device's callback: all of what it recorded into the ring, or none of it (an overrun).
fn on_data<T: ToF32>(
    ring: Arc<PcmRing>,
    channels: usize,
    mut raise: bool,
    stats: Arc<DeviceStats>,
) -> impl FnMut(&[T], &cpal::InputCallbackInfo) + Send + 'static {
    move |data: &[T], info: &cpal::InputCallbackInfo| {
        if raise {
            raise_current_thread(PRIORITY);
            raise = false;
        }
        push(&ring, data, channels, &stats);
        let t = info.timestamp();
        if let Some(d) = t.callback.duration_since(&t.capture) {
            stats.latency_us.store(d.as_micros() as u64, Relaxed);
        }
    }
}

/// Writes `data` into the ring if it all fits; otherwise drops it and counts an overrun.
fn push<T: ToF32>(ring: &PcmRing, data: &[T], channels: usize, stats: &DeviceStats) {
    let frames = (data.len() / channels.max(1)) as u64;
    stats.frames.fetch_add(frames, Relaxed);
    if !ring.write_with(data.len(), |i| data[i].to_f32()) {
        stats.overruns.fetch_add(1, Relaxed);
        stats.frames_lost.fetch_add(frames, Relaxed);
    }
}

/// `s` in the wire's 16-bit encoding, written to `out` (2 bytes).
fn encode(s: f32, format: WireFormat, out: &mut [u8]) {
    let v = (s * 32768.0).round().clamp(-32768.0, 32767.0) as i16;
    out.copy_from_slice(&match format {
        WireFormat::S16Be => v.to_be_bytes(),
        _ => v.to_le_bytes(),
    });
}

impl DeviceCapture {
    /// What records, for the start line.
    pub fn describe(&self) -> &str {
        &self.what
    }

    /// Fills `into` (one payload, 16-bit) from the ring once it holds that much; `Ok(false)`
    /// when `stop` was set first, an error when the device failed.
    pub fn read(
        &mut self,
        into: &mut [u8],
        format: WireFormat,
        stop: &AtomicBool,
    ) -> Result<bool, String> {
        let samples = into.len() / 2;
        while self.ring.available() < samples {
            if let Some(e) = self.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
                return Err(format!("{} stopped capturing: {e}", self.what));
            }
            if stop.load(Relaxed) {
                return Ok(false);
            }
            std::thread::sleep(POLL);
        }
        self.scratch.resize(samples, 0.0);
        self.ring.read_into(&mut self.scratch);
        for (s, out) in self.scratch.iter().zip(into.chunks_exact_mut(2)) {
            encode(*s, format, out);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_does_not_fit_is_dropped_whole_and_counted_and_16_bit_survives_the_round_trip() {
        let ring = PcmRing::new(8);
        let stats = DeviceStats::default();
        push(&ring, &[i16::MIN, -1, 0, 1, 1000, i16::MAX], 2, &stats);
        push(&ring, &[7i16, 7, 7, 7], 2, &stats);
        assert_eq!(stats.overruns.load(Relaxed), 1);
        assert_eq!(stats.frames_lost.load(Relaxed), 2);
        assert_eq!(stats.frames.load(Relaxed), 5);
        let mut got = [0.0f32; 8];
        assert_eq!(ring.read_into(&mut got), 6);
        let mut be = [0u8; 2];
        let mut le = [0u8; 2];
        let back: Vec<i16> = got[..6]
            .iter()
            .map(|s| {
                encode(*s, WireFormat::S16Be, &mut be);
                encode(*s, WireFormat::S16Le, &mut le);
                assert_eq!(i16::from_be_bytes(be), i16::from_le_bytes(le));
                i16::from_be_bytes(be)
            })
            .collect();
        assert_eq!(back, [i16::MIN, -1, 0, 1, 1000, i16::MAX]);
        // Float beyond full scale is clipped, not wrapped.
        encode(1.5, WireFormat::S16Le, &mut le);
        assert_eq!(i16::from_le_bytes(le), i16::MAX);
    }
}
