//! The engine side of the receiver: an engine listening on the port (joining the multicast
//! group without `-u`), one card sink ([`SinkProtocol::Card`]) whose clock the sound server
//! pulls, and one path to it. Scream: from the sender heard most recently (a plain Scream source
//! is matched by its sender's address, so the receiver learns it from the engine's unknown
//! senders and applies it; a new sender takes over). RTP (`-r`): from any sender to the port,
//! in the format given (an RTP source is matched by its port).

use crate::options::Options;
use std::net::IpAddr;
use tributary_dsp::ChannelLayout;
use tributary_engine::sink::output::card::Card;
use tributary_engine::{
    DesiredState, Engine, EngineOptions, EngineStats, JitterConfig, PathSpec, RtpSourceSpec,
    SenderKind, SinkProtocol, SinkSpec,
};

/// The rate and channels the sound server is given: the engine converts any stream to them.
pub const RATE: u32 = 48_000;
pub const CHANNELS: usize = 2;
/// How much the card's ring holds at least, ms.
const RING_MS: f64 = 100.0;
/// The least the engine keeps in the ring for PulseAudio, ms (its thread waits for the rest).
pub const LOW_MS: f64 = 10.0;

/// The running engine and what it plays.
pub struct Receiver {
    engine: Engine,
    sink: SinkSpec,
    port: u16,
    /// RTP (a fixed path) rather than Scream (a path from the sender heard last).
    rtp: bool,
    /// The Scream sender playing.
    pub sender: Option<IpAddr>,
}

impl Receiver {
    /// Binds the port and starts the engine; returns the card the back end plays, in whose
    /// ring the engine keeps at least `low_ms`.
    pub fn start(o: &Options, low_ms: f64) -> Result<(Receiver, Card), String> {
        let jitter = JitterConfig {
            max_ms: o
                .buffer_ms
                .map_or(JitterConfig::default().max_ms, f64::from),
            ..JitterConfig::default()
        }
        .clamped();
        let (scream_ports, rtp_ports) = match o.rtp {
            None => (vec![o.port], Vec::new()),
            Some(_) => (Vec::new(), vec![o.port]),
        };
        let options = EngineOptions {
            bind: o.bind(),
            scream_ports,
            tagged_port: None,
            rtp_ports,
            multicast_groups: if o.unicast { Vec::new() } else { vec![o.group] },
            jitter,
            ..EngineOptions::default()
        };
        let engine = Engine::start(options)
            .map_err(|e| format!("cannot listen on UDP port {}: {e}", o.port))?;
        let card = Card::register(CHANNELS, RATE, RING_MS.max(low_ms * 4.0), low_ms);
        let mut sink = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            RATE,
            16,
            ChannelLayout::STEREO,
        );
        sink.name = o.stream_name.clone();
        // RTP is matched by its port: one path from any sender, at once.
        sink.paths = o
            .rtp
            .map(|format| PathSpec {
                rtp: Some(RtpSourceSpec {
                    listen_ip: None,
                    port: o.port,
                    format,
                    payload_type: None,
                }),
                ..PathSpec::new("rtp")
            })
            .into_iter()
            .collect();
        let mut receiver = Receiver {
            engine,
            sink,
            port: o.port,
            rtp: o.rtp.is_some(),
            sender: None,
        };
        receiver.apply()?;
        Ok((receiver, card))
    }

    /// Plays the Scream sender heard most recently on our port if it is not the one playing;
    /// returns it when it changed.
    pub fn follow_sender(&mut self) -> Result<Option<IpAddr>, String> {
        if self.rtp {
            return Ok(None);
        }
        let newest = self
            .engine
            .unknown_senders()
            .into_iter()
            .filter(|u| u.kind == SenderKind::Scream && u.port == u32::from(self.port))
            .find_map(|u| u.address.parse::<IpAddr>().ok());
        match newest {
            Some(ip) if Some(ip) != self.sender => {
                self.sender = Some(ip);
                self.apply()?;
                Ok(Some(ip))
            }
            _ => Ok(None),
        }
    }

    fn apply(&mut self) -> Result<(), String> {
        if !self.rtp {
            self.sink.paths = self
                .sender
                .map(|ip| PathSpec {
                    ip: Some(ip),
                    ..PathSpec::new("scream")
                })
                .into_iter()
                .collect();
        }
        let state = DesiredState {
            sinks: vec![self.sink.clone()],
        };
        match self.engine.apply(state) {
            Ok(problems) if problems.is_empty() => Ok(()),
            Ok(problems) => Err(format!("the engine refused the receiver: {}", problems[0])),
            Err(e) => Err(format!("the engine stopped: {e}")),
        }
    }

    pub fn stats(&self) -> EngineStats {
        self.engine.stats()
    }

    pub fn stop(&mut self) {
        self.engine.stop();
    }
}
