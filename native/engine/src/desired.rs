//! What the engine plays: the desired state `apply` receives (the control plane's solver
//! output: per real sink, the real sources that reach it with their effective volume,
//! equalizer and delay), and the checks that say which sinks can be played.

use crate::limits::{
    CHANNELS_MAX, DEFAULT_SINK_PORT, EQ_BANDS, EQ_GAIN_MAX, MAX_DELAY_MS, SAMPLE_RATE_MAX,
    SAMPLE_RATE_MIN, VOLUME_MAX,
};
use crate::wire::rtp::{self, RtpFormat};
use std::net::IpAddr;
use tributary_dsp::layout::ChannelLayout;
use tributary_dsp::sample_format::SampleFormat;

/// How a sink receives audio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SinkProtocol {
    /// Scream over UDP: 5-byte header + 1152-byte payloads.
    Scream,
    /// RTP L16/L24 over UDP, RTCP sender reports on port + 1.
    Rtp,
    /// Raw PCM over a TCP connection the engine opens to the sink.
    Tcp,
    /// A sound card on this machine (`tributary receive`): the mix goes to the card
    /// registered under the sink's id ([`crate::sink::output::card`]), whose demand paces it.
    Card,
}

/// How an RTP source arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct RtpSourceSpec {
    /// Local or multicast address to listen on; `None` for all.
    pub listen_ip: Option<IpAddr>,
    pub port: u16,
    pub format: RtpFormat,
    /// Payload type to accept; `None` accepts any.
    pub payload_type: Option<u8>,
}

/// One real source reaching a sink, with effective levels.
#[derive(Clone, Debug, PartialEq)]
pub struct PathSpec {
    /// Stable identity of the source (its config id).
    pub source_id: String,
    /// Display name.
    pub source_name: String,
    /// Sender address streams are matched by.
    pub ip: Option<IpAddr>,
    /// Stream tag (per-application Scream `ip/program`).
    pub tag: Option<String>,
    /// RTP reception settings; `None` for Scream sources.
    pub rtp: Option<RtpSourceSpec>,
    /// 0.0-1.0.
    pub volume: f32,
    /// Linear band gains 0.0-2.0 (1.0 flat).
    pub eq: [f32; EQ_BANDS],
    /// 0-300 000 ms.
    pub delay_ms: f64,
}

/// One real sink.
#[derive(Clone, Debug, PartialEq)]
pub struct SinkSpec {
    /// Stable identity (config id).
    pub id: String,
    pub name: String,
    /// Destination; `None` renders nothing and sends nothing.
    pub ip: Option<IpAddr>,
    pub port: u16,
    pub protocol: SinkProtocol,
    pub sample_rate: u32,
    pub bit_depth: u8,
    pub channels: u8,
    pub layout: ChannelLayout,
    pub normalize: bool,
    /// RTP payload type sent; `None`: 10 or 11 for L16 44.1 kHz stereo or mono, else 127 for
    /// L16 and 97 for L24 (see [`SinkSpec::rtp_payload_type`]).
    pub payload_type: Option<u8>,
    pub paths: Vec<PathSpec>,
}

/// Everything the engine should play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DesiredState {
    pub sinks: Vec<SinkSpec>,
}

/// A desired state that cannot be played, naming the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl PathSpec {
    /// A path from source `id` (also its name), matched by nothing yet, at volume 1.0 with a
    /// flat EQ and no delay; set the other fields with struct update syntax.
    pub fn new(id: &str) -> Self {
        Self {
            source_id: id.to_owned(),
            source_name: id.to_owned(),
            ip: None,
            tag: None,
            rtp: None,
            volume: 1.0,
            eq: [1.0; EQ_BANDS],
            delay_ms: 0.0,
        }
    }
}

impl SinkSpec {
    /// A sink `id` (also its name) in `protocol` at `sample_rate`, `bit_depth` and `layout`
    /// (its channel count), with no destination yet (port 4010), no normalisation, no paths.
    pub fn new(
        id: &str,
        protocol: SinkProtocol,
        sample_rate: u32,
        bit_depth: u8,
        layout: ChannelLayout,
    ) -> Self {
        Self {
            id: id.to_owned(),
            name: id.to_owned(),
            ip: None,
            port: DEFAULT_SINK_PORT,
            protocol,
            sample_rate,
            bit_depth,
            channels: layout.channels() as u8,
            layout,
            normalize: false,
            payload_type: None,
            paths: Vec::new(),
        }
    }

    /// The RTP payload type this sink sends: the configured one, else the usual one for its
    /// format ([`rtp::usual_payload_type`]).
    pub fn rtp_payload_type(&self) -> u8 {
        self.payload_type.unwrap_or_else(|| {
            rtp::usual_payload_type(self.bit_depth, self.sample_rate, self.channels)
        })
    }

    /// The wire encoding: Scream and TCP are little-endian, RTP big-endian (L16/L24).
    pub fn sample_format(&self) -> Result<SampleFormat, ConfigError> {
        let err = || {
            ConfigError(format!(
                "sinks[{}].bit_depth: {} is not playable over {:?} (16, 24, or 32 for Scream/TCP)",
                self.name, self.bit_depth, self.protocol
            ))
        };
        match (self.protocol, self.bit_depth) {
            (SinkProtocol::Rtp, 16) => Ok(SampleFormat::S16Be),
            (SinkProtocol::Rtp, 24) => Ok(SampleFormat::S24Be),
            (SinkProtocol::Rtp, _) => Err(err()),
            (_, 16) => Ok(SampleFormat::S16Le),
            (_, 24) => Ok(SampleFormat::S24Le),
            (_, 32) => Ok(SampleFormat::S32Le),
            _ => Err(err()),
        }
    }
}

impl SinkSpec {
    /// Checks this sink (number `i` in the state) against the engine's bounds; the error names
    /// the first bad field.
    pub fn validate(&self, i: usize) -> Result<(), ConfigError> {
        let at = |field: &str| format!("sinks[{i}].{field}");
        let err = |field: &str, msg: String| Err(ConfigError(format!("{}: {msg}", at(field))));
        if !(SAMPLE_RATE_MIN..=SAMPLE_RATE_MAX).contains(&self.sample_rate) {
            return err(
                "sample_rate",
                format!(
                    "{} Hz is outside {SAMPLE_RATE_MIN}-{SAMPLE_RATE_MAX}",
                    self.sample_rate
                ),
            );
        }
        if !(1..=CHANNELS_MAX).contains(&self.channels)
            || usize::from(self.channels) != self.layout.channels()
        {
            return err(
                "channels",
                format!(
                    "{} channels do not match channel_layout {} ({} channels)",
                    self.channels,
                    self.layout,
                    self.layout.channels()
                ),
            );
        }
        self.sample_format()
            .map_err(|e| ConfigError(format!("{}: {}", at("bit_depth"), e.0)))?;
        if let Some(pt) = self
            .payload_type
            .filter(|_| self.protocol == SinkProtocol::Rtp)
        {
            if let Some(f) = RtpFormat::from_static_payload_type(pt) {
                let ours = (self.bit_depth, self.sample_rate, self.channels);
                if ours != (16, f.sample_rate, f.channels) {
                    return err(
                        "payload_type",
                        format!(
                            "{pt} is L16 {} Hz {} ch (RFC 3551), but this sink sends {}-bit {} Hz {} ch; \
                             use a dynamic type (96-127) or null",
                            f.sample_rate, f.channels, self.bit_depth, self.sample_rate, self.channels
                        ),
                    );
                }
            }
        }
        let mut sources = std::collections::HashSet::new();
        for (j, p) in self.paths.iter().enumerate() {
            let field = |f: &str| format!("paths[{j}].{f}");
            if !sources.insert(&p.source_id) {
                return err(
                    &field("source_config_id"),
                    format!("source '{}' appears twice", p.source_id),
                );
            }
            if !(0.0..=VOLUME_MAX).contains(&p.volume) {
                return err(
                    &field("volume"),
                    format!("{} is outside 0.0-{VOLUME_MAX:.1}", p.volume),
                );
            }
            if let Some(b) = p.eq.iter().position(|g| !(0.0..=EQ_GAIN_MAX).contains(g)) {
                return err(
                    &field("eq"),
                    format!(
                        "band {} gain {} is outside 0.0-{EQ_GAIN_MAX:.1}",
                        b + 1,
                        p.eq[b]
                    ),
                );
            }
            if !(0.0..=MAX_DELAY_MS).contains(&p.delay_ms) {
                return err(
                    &field("delay_ms"),
                    format!("{} ms is outside 0-{MAX_DELAY_MS}", p.delay_ms),
                );
            }
        }
        Ok(())
    }
}

impl DesiredState {
    /// Splits the state into what can be played and one error per sink that cannot (bad
    /// values, or an id already used by an earlier sink). One bad sink never stops the others.
    pub fn playable(mut self) -> (DesiredState, Vec<ConfigError>) {
        let mut problems = Vec::new();
        let mut ids = std::collections::HashSet::new();
        let mut i = 0;
        self.sinks.retain(|s| {
            let result = if ids.insert(s.id.clone()) {
                s.validate(i)
            } else {
                Err(ConfigError(format!(
                    "sinks[{i}].config_id: duplicate sink id '{}'",
                    s.id
                )))
            };
            i += 1;
            match result {
                Ok(()) => true,
                Err(e) => {
                    problems.push(e);
                    false
                }
            }
        });
        (self, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sink(
        id: &str,
        channels: u8,
        layout: ChannelLayout,
        protocol: SinkProtocol,
        bits: u8,
    ) -> SinkSpec {
        SinkSpec {
            channels,
            ..SinkSpec::new(id, protocol, 48_000, bits, layout)
        }
    }

    #[test]
    fn bad_sinks_are_skipped_with_a_named_field_and_the_rest_plays() {
        let state = DesiredState {
            sinks: vec![
                sink("ok", 2, ChannelLayout::STEREO, SinkProtocol::Scream, 16),
                sink(
                    "layout",
                    2,
                    ChannelLayout::LAYOUT_5_1,
                    SinkProtocol::Scream,
                    16,
                ),
                sink("rtp32", 2, ChannelLayout::STEREO, SinkProtocol::Rtp, 32),
                sink("ok", 2, ChannelLayout::STEREO, SinkProtocol::Tcp, 24),
            ],
        };
        let (playable, problems) = state.playable();
        assert_eq!(playable.sinks.len(), 1);
        assert_eq!(playable.sinks[0].id, "ok");
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(
            text[0].starts_with("sinks[1].channels: 2 channels do not match channel_layout 5.1"),
            "{}",
            text[0]
        );
        assert!(text[1].starts_with("sinks[2].bit_depth:"), "{}", text[1]);
        assert!(text[2].contains("duplicate sink id 'ok'"), "{}", text[2]);
    }

    #[test]
    fn rtp_sinks_send_the_static_payload_type_of_their_format_and_refuse_a_wrong_one() {
        let at = |rate, channels, bits, pt| SinkSpec {
            sample_rate: rate,
            channels,
            payload_type: pt,
            ..sink(
                "r",
                channels,
                default_layout(channels),
                SinkProtocol::Rtp,
                bits,
            )
        };
        assert_eq!(at(44_100, 2, 16, None).rtp_payload_type(), 10);
        assert_eq!(at(44_100, 1, 16, None).rtp_payload_type(), 11);
        assert_eq!(at(48_000, 2, 16, None).rtp_payload_type(), 127);
        assert_eq!(at(48_000, 1, 16, None).rtp_payload_type(), 127);
        assert_eq!(at(96_000, 8, 16, None).rtp_payload_type(), 127);
        assert_eq!(at(44_100, 2, 24, None).rtp_payload_type(), 97);
        assert_eq!(at(48_000, 2, 16, Some(127)).rtp_payload_type(), 127);
        assert!(at(44_100, 2, 16, Some(10)).validate(0).is_ok());
        let wrong = at(48_000, 2, 16, Some(10))
            .validate(0)
            .unwrap_err()
            .to_string();
        assert!(
            wrong.starts_with("sinks[0].payload_type: 10 is L16 44100 Hz 2 ch"),
            "{wrong}"
        );
    }

    fn default_layout(channels: u8) -> ChannelLayout {
        ChannelLayout::default_for_channels(usize::from(channels)).unwrap()
    }
}
