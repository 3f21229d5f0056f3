//! Sinks: per real sink, a mixer ticking on the router's steady clock. Each tick renders every
//! path ([`crate::graph::path`]), mixes them ([`mix`]) and hands the packet to the sink's
//! transport ([`output`]: Scream, RTP or TCP), whether or not sources send (silence then).
//!
//! - [`clock`]: when packets are due (the [`clock::SinkClock`] seam; the router's clock
//!   today); [`mix`]: the sum and the limiter;
//! - [`output`]: one module per transport behind one type;
//! - [`listen`]: a tap on the mix for listening outputs (MP3 over HTTP, Opus over WebRTC), encoded off this thread.

pub mod clock;
pub mod counters;
pub mod listen;
pub mod meter;
pub mod mix;
pub mod output;

use crate::desired::{ConfigError, SinkSpec};
use crate::graph::path::Path;
use crate::graph::tap::Tap;
use crate::sink::clock::card::CardClock;
use crate::sink::clock::router::RouterClock;
use crate::sink::clock::SinkClock;
pub use crate::sink::counters::SinkCounters;
use crate::sink::listen::fold::StereoFold;
use crate::sink::meter::MeterWindow;
use crate::sink::mix::{Mix, Mixed};
use crate::sink::output::transport::SendContext;
use crate::sink::output::Output;
use crate::source::slot::SourceSlot;
use std::net::UdpSocket;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A sink on the engine thread: its paths, mixer, transport and clock. Built off the real-time
/// thread; `tick` never allocates.
pub struct Sink {
    pub spec: SinkSpec,
    pub paths: Vec<Path>,
    pub counters: Arc<SinkCounters>,
    /// When its packets are due (see [`clock`]: the router's, or a card's for a card sink).
    clock: Box<dyn SinkClock>,
    mix: Mix,
    meter: MeterWindow,
    output: Output,
    /// The stereo its listening outputs (MP3, WebRTC) hear.
    fold: StereoFold,
    /// When the packet rendered and not yet sent is due.
    held: Option<Instant>,
}

impl Sink {
    /// Builds the sink (paths are added by the caller). `start` is the first tick's deadline;
    /// `seed` varies its stream identifiers.
    pub fn new(spec: &SinkSpec, start: Instant, seed: u64) -> Result<Self, ConfigError> {
        let output = Output::new(spec, seed)?;
        let mix = Mix::new(
            spec.layout.channels(),
            spec.sample_rate,
            Output::max_frames(spec),
        )
        .map_err(|e| ConfigError(format!("sink {}: {e}", spec.name)))?;
        // A card sink runs on its card's clock, every other on the router's.
        let clock: Box<dyn SinkClock> = match output.card() {
            Some(card) => Box::new(CardClock::new(card.clone(), start, output.period())),
            None => Box::new(RouterClock::new(start, output.period())),
        };
        Ok(Self {
            spec: spec.clone(),
            paths: Vec::new(),
            counters: Arc::new(SinkCounters::default()),
            clock,
            mix,
            meter: MeterWindow::new(spec.layout.channels(), spec.sample_rate),
            output,
            fold: StereoFold::for_layout(spec.layout),
            held: None,
        })
    }

    /// The same sink paced by `clock` instead of the router's (see [`clock`]: where a sound
    /// card's or a reference's clock plugs in).
    pub fn with_clock(mut self, clock: Box<dyn SinkClock>) -> Self {
        self.clock = clock;
        self
    }

    /// Frames a sink with this spec renders per tick at most (sizes its paths' buffers).
    pub fn max_frames_for(spec: &SinkSpec) -> usize {
        Output::max_frames(spec)
    }

    /// Nominal time between packets.
    pub fn period(&self) -> Duration {
        self.clock.period()
    }

    /// When the next packet is due.
    pub fn deadline(&self) -> Instant {
        self.clock.deadline()
    }

    /// Takes over the tick phase (and the stream, for the same transport and receiver) of the
    /// sink this one replaces, so replacing it leaves no gap.
    pub fn continue_from(&mut self, previous: &Sink) {
        self.clock.continue_from(previous.clock.as_ref());
        self.output.continue_from(&previous.output);
    }

    /// Produces and sends the packet due now (render, then send at once). `sources` and
    /// `taps` are the engine's tables; `now_s` is `now` on the engine's clock (seconds).
    pub fn tick(
        &mut self,
        sources: &mut [SourceSlot],
        taps: &mut [Tap],
        now: Instant,
        now_s: f64,
        socket: &UdpSocket,
    ) {
        self.render(sources, taps, now, now_s);
        self.send(now, socket);
    }

    /// Whether this sink's packets may be rendered ahead of their deadlines (its clock is on a
    /// grid; see [`crate::runtime::lead`]).
    pub fn renders_ahead(&self) -> bool {
        self.clock.renders_ahead()
    }

    /// When the packet rendered and not yet sent is due, if there is one.
    pub fn held(&self) -> Option<Instant> {
        self.held
    }

    /// Renders the packet due at [`Sink::deadline`] (which may be ahead of `now`) and holds it
    /// for [`Sink::send`]; the paths read at the packet's own time, wherever `now` is. `now_s`
    /// is `now` on the engine's clock (seconds).
    pub fn render(
        &mut self,
        sources: &mut [SourceSlot],
        taps: &mut [Tap],
        now: Instant,
        now_s: f64,
    ) {
        let due = self.clock.deadline();
        let (late, skipped) = self.clock.advance(now);
        let deadline_s = match due.checked_duration_since(now) {
            Some(ahead) => now_s + ahead.as_secs_f64(),
            None => now_s - late.as_secs_f64(),
        };
        // How late the clock judges this render (a card's clock never is): a stall a skip hides
        // from the send below still shows.
        self.counters
            .max_late_us
            .fetch_max(late.as_micros() as u64, Relaxed);
        // Held until its deadline on a grid; after a skip, or on a pulled clock (whose deadline
        // is when its consumer asked), it goes now.
        let at_once = skipped || !self.clock.renders_ahead();
        self.held = Some(if at_once { now } else { due });
        if skipped {
            // The paths pick up where their taps' other paths play now.
            self.paths.iter_mut().for_each(Path::rejoin);
        }
        while let Some((frames, after_s)) = self.output.next_render() {
            let mixed = self.mix.render(
                &mut self.paths,
                sources,
                taps,
                now_s,
                deadline_s + after_s,
                frames,
                &self.counters,
            );
            match &mixed {
                Mixed::Audio(audio) => {
                    let rate = self.spec.sample_rate;
                    self.counters.listen.push_audio(audio, rate, &self.fold);
                    self.counters.webrtc.push_audio(audio, rate, &self.fold);
                    let n = frames.min(audio.frames());
                    self.meter.observe(Some(audio), n, &self.counters.meter);
                }
                Mixed::Silence(n) => {
                    self.counters.listen.push_silence(*n, self.spec.sample_rate);
                    self.counters.webrtc.push_silence(*n, self.spec.sample_rate);
                    self.meter.observe(None, *n, &self.counters.meter);
                }
            }
            self.output.take(mixed);
        }
    }

    /// Sends the packet [`Sink::render`] holds (nothing when it holds none), counting how late
    /// `now` is for it.
    pub fn send(&mut self, now: Instant, socket: &UdpSocket) {
        let Some(due) = self.held.take() else {
            return;
        };
        let late = now.saturating_duration_since(due);
        self.counters
            .max_late_us
            .fetch_max(late.as_micros() as u64, Relaxed);
        let context = SendContext {
            socket,
            counters: &self.counters,
            now,
        };
        self.output.send(&context);
    }
}
