//! Plays a card's ring on ALSA or JACK through cpal: the device's own thread (ALSA's worker,
//! JACK's process callback) asks for frames; the callback takes what the ring holds, never
//! waits, and plays silence for what it lacks (an underrun, counted). So the device's clock
//! drains the ring and, through the card clock, makes the engine render.
//!
//! Opening is in two steps: [`open`] finds the device and learns its period (JACK's is the
//! server's), which sets how much the engine keeps in the ring; [`OpenDevice::play`] then
//! starts the stream on the card.

use crate::output::cpal_devices::{
    alsa_device, jack_device, on_error, reason, Direction::Playback,
};
use crate::output::{CardStats, OutputError};
use cpal::traits::{DeviceTrait, StreamTrait};
use cpal::{BufferSize, SampleFormat, SampleRate, StreamConfig, SupportedBufferSize};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use tributary_engine::runtime::scheduling::raise_current_thread;
use tributary_engine::sink::output::card::Card;

/// ALSA's worker thread's real-time priority (SCHED_FIFO), as the PulseAudio thread's. JACK's
/// process thread has the server's.
const PRIORITY: i32 = 20;

/// What the engine keeps in the ring beyond what the device asks for at a time, ms: one render
/// of the card sink (5 ms), so the ring holds a whole period whenever the device asks.
pub const MARGIN_MS: f64 = 5.0;

/// The ALSA period cpal asks for when the buffer given is refused, ms.
const ALSA_DEFAULT_PERIOD_MS: usize = 25;

/// Which API, and its device.
#[derive(Clone, Debug, PartialEq)]
pub enum Api {
    /// An ALSA device by the name cpal lists it under (`default`, ..., or a card's name).
    Alsa { device: String },
    /// A JACK client of this name on the running server.
    Jack { client: String },
}

/// Where and how to play.
pub struct DeviceSettings {
    pub api: Api,
    pub rate: u32,
    pub channels: u16,
    /// ALSA's buffer (its period is a quarter of it); JACK's is the server's.
    pub target_ms: u32,
}

/// A device found and able to play the stream, not playing yet.
pub struct OpenDevice {
    device: cpal::Device,
    config: StreamConfig,
    /// Frames the device asks for at a time (JACK: its period; ALSA: the larger of the period
    /// asked for and cpal's default one). ALSA asks for its whole buffer once, at the start.
    pub period_frames: usize,
    what: String,
}

/// The stream playing; stopping (or dropping) it closes the device.
pub struct DeviceOutput {
    stream: Option<cpal::Stream>,
    failed: Arc<Mutex<Option<String>>>,
    what: String,
    pub stats: Arc<CardStats>,
}

/// Finds the device and checks that it plays `rate` Hz, `channels`, f32; a missing, busy or
/// unsuitable device, or no JACK server, is an error in words.
pub fn open(s: &DeviceSettings) -> Result<OpenDevice, OutputError> {
    let (device, what) = match &s.api {
        Api::Alsa { device } => (
            alsa_device(device, Playback).map_err(OutputError)?,
            format!("the ALSA device {device}"),
        ),
        Api::Jack { client } => (
            jack_device(client, Playback).map_err(OutputError)?,
            format!("the JACK server as {client}_out"),
        ),
    };
    let configs: Vec<_> = device
        .supported_output_configs()
        .map_err(|e| {
            OutputError(format!(
                "cannot open {what}: {}",
                reason(&e.to_string(), Playback)
            ))
        })?
        .collect();
    let fits = configs.iter().find(|c| {
        c.channels() == s.channels
            && c.sample_format() == SampleFormat::F32
            && (c.min_sample_rate().0..=c.max_sample_rate().0).contains(&s.rate)
    });
    let Some(fits) = fits else {
        let rates: Vec<String> = configs
            .iter()
            .filter(|c| c.channels() == s.channels)
            .map(|c| match (c.min_sample_rate().0, c.max_sample_rate().0) {
                (a, b) if a == b => format!("{a} Hz {:?}", c.sample_format()),
                (a, b) => format!("{a}-{b} Hz {:?}", c.sample_format()),
            })
            .collect();
        let hint = match s.api {
            Api::Jack { .. } => ": start jackd at -r 48000",
            Api::Alsa { .. } => ": play through its plughw device or default",
        };
        return Err(OutputError(format!(
            "{what} does not play {} Hz {} ch float (it plays {}){hint}",
            s.rate,
            s.channels,
            if rates.is_empty() {
                "no stereo format".to_owned()
            } else {
                rates.join(", ")
            }
        )));
    };
    let (buffer_size, period_frames) = match (&s.api, fits.buffer_size()) {
        (Api::Jack { .. }, SupportedBufferSize::Range { max, .. }) => {
            (BufferSize::Default, *max as usize)
        }
        (Api::Jack { .. }, SupportedBufferSize::Unknown) => (BufferSize::Default, 1024),
        (Api::Alsa { .. }, _) => {
            // Periods of a quarter of the buffer; a device that refuses the buffer gets cpal's
            // default (periods near 25 ms), so that much is kept ready from the start.
            let frames = (s.rate as usize * s.target_ms as usize / 1000) as u32;
            let default_period = s.rate as usize * ALSA_DEFAULT_PERIOD_MS / 1000;
            (
                BufferSize::Fixed(frames),
                (frames as usize / 4).max(default_period),
            )
        }
    };
    Ok(OpenDevice {
        device,
        config: StreamConfig {
            channels: s.channels,
            sample_rate: SampleRate(s.rate),
            buffer_size,
        },
        period_frames,
        what,
    })
}

impl OpenDevice {
    /// What plays, for the start line: `the ALSA device default`, `the JACK server as
    /// Tributary_out`.
    pub fn describe(&self) -> &str {
        &self.what
    }

    /// Starts the stream: the device pulls `card`'s frames. An ALSA device that refuses a
    /// buffer of `-t` exactly is asked for cpal's default (25 ms periods, 100 ms) instead.
    pub fn play(self, card: Card) -> Result<DeviceOutput, OutputError> {
        let stats = Arc::new(CardStats::default());
        let failed = Arc::new(Mutex::new(None));
        let what = self.what;
        let card = Arc::new(card);
        let raise = !what.starts_with("the JACK");
        let build = |config: &StreamConfig| {
            self.device.build_output_stream(
                config,
                on_data(card.clone(), raise, stats.clone()),
                on_error(failed.clone(), stats.clone(), |s: &CardStats| {
                    &s.device_errors
                }),
                None,
            )
        };
        let stream = match build(&self.config) {
            Err(first) if matches!(self.config.buffer_size, BufferSize::Fixed(_)) => {
                let config = StreamConfig {
                    buffer_size: BufferSize::Default,
                    ..self.config.clone()
                };
                build(&config).map_err(|_| first)
            }
            built => built,
        }
        .map_err(|e| {
            OutputError(format!(
                "cannot open {what}: {}",
                reason(&e.to_string(), Playback)
            ))
        })?;
        stream
            .play()
            .map_err(|e| OutputError(format!("{what} does not start: {e}")))?;
        Ok(DeviceOutput {
            stream: Some(stream),
            failed,
            what,
            stats,
        })
    }
}

/// The device's callback: fills what it asks for from the ring ([`pull`]), keeps that much and
/// [`MARGIN_MS`] queued from then on, counts the frames and the device's latency.
fn on_data(
    card: Arc<Card>,
    mut raise: bool,
    stats: Arc<CardStats>,
) -> impl FnMut(&mut [f32], &cpal::OutputCallbackInfo) + Send + 'static {
    let margin = (MARGIN_MS * f64::from(card.shared.rate) / 1000.0) as usize;
    let mut primed = false;
    move |out: &mut [f32], info: &cpal::OutputCallbackInfo| {
        if raise {
            raise_current_thread(PRIORITY);
            raise = false;
        }
        pull(&card, out, margin, &mut primed, &stats);
        let t = info.timestamp();
        if let Some(d) = t.playback.duration_since(&t.callback) {
            stats.server_latency_us.store(d.as_micros() as u64, Relaxed);
        }
    }
}

/// Fills `out` from the ring without waiting. The device's buffer starts empty and asks for
/// all of it at once: that first time the silence goes before the audio (latency, not a gap).
/// Later, a ring that runs dry is an underrun: the rest is silence. Afterwards a device asks
/// for a period, or more when its thread woke late: from then on the engine keeps that much
/// and `margin` frames ready.
fn pull(card: &Card, out: &mut [f32], margin: usize, primed: &mut bool, stats: &CardStats) {
    let frames = out.len() / card.shared.channels;
    if *primed {
        card.shared.raise_low_frames(frames + margin);
    }
    stats.frames.fetch_add(frames as u64, Relaxed);
    let got = card.read_into(out);
    if got < out.len() {
        if *primed {
            out[got..].fill(0.0);
            stats.underruns.fetch_add(1, Relaxed);
        } else {
            let lack = out.len() - got;
            out.copy_within(..got, lack);
            out[..lack].fill(0.0);
        }
    }
    *primed = true;
}

impl DeviceOutput {
    /// Stops playing; the device's error, if it failed while playing.
    pub fn stop(&mut self) -> Result<(), OutputError> {
        drop(self.stream.take());
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner()).take();
        match failed {
            Some(e) => Err(OutputError(format!("{} stopped playing: {e}", self.what))),
            None => Ok(()),
        }
    }

    /// Whether the device reported an error.
    pub fn ended(&self) -> bool {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tributary_dsp::{AudioBuffer, ChannelLayout};
    use tributary_engine::desired::{SinkProtocol, SinkSpec};
    use tributary_engine::sink::mix::Mixed;
    use tributary_engine::sink::output::card::CardOutput;
    use tributary_engine::sink::output::transport::Transport;

    /// A stereo card (100 ms ring, 10 ms low mark) holding 240 frames of 1.0, as the engine
    /// writes them.
    fn card_with_240_frames() -> Card {
        let card = Card::register(2, 48_000, 100.0, 10.0);
        let spec = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            48_000,
            16,
            ChannelLayout::STEREO,
        );
        let mut sink = CardOutput::new(&spec, 0).unwrap();
        let ones = [1.0f32; 240];
        sink.take(Mixed::Audio(
            &AudioBuffer::from_planes(&[&ones, &ones]).unwrap(),
        ));
        card
    }

    #[test]
    fn the_first_fill_puts_its_silence_first_later_a_short_ring_is_an_underrun_and_raises_the_mark()
    {
        let stats = CardStats::default();
        let card = card_with_240_frames();
        let mut primed = false;
        // The device's empty buffer asks for 1000 frames: 760 of silence, then the 240.
        let mut out = vec![9.0f32; 2000];
        pull(&card, &mut out, 240, &mut primed, &stats);
        assert!(out[..1520].iter().all(|s| *s == 0.0) && out[1520..].iter().all(|s| *s == 1.0));
        assert_eq!(
            stats.underruns.load(Relaxed),
            0,
            "the first fill is not an underrun"
        );
        assert_eq!(card.shared.low_frames(), 480, "the mark as registered");

        // A period of 600 frames with 240 in the ring: the 240, then silence, one underrun,
        // and from now on 600 + 240 frames are kept ready.
        let card2 = card_with_240_frames();
        let mut out = vec![9.0f32; 1200];
        pull(&card2, &mut out, 240, &mut primed, &stats);
        assert!(out[..480].iter().all(|s| *s == 1.0) && out[480..].iter().all(|s| *s == 0.0));
        assert_eq!(stats.underruns.load(Relaxed), 1);
        assert_eq!(card2.shared.low_frames(), 840);
        // Never above half the ring (2400 frames).
        pull(
            &card2,
            &mut vec![0.0f32; 2 * 4000],
            240,
            &mut primed,
            &stats,
        );
        assert_eq!(card2.shared.low_frames(), 2400);
        assert_eq!(stats.frames.load(Relaxed), 1000 + 600 + 4000);
    }
}
