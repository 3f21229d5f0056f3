//! The command line of `tributary send`: where to send (`-h/--host`, `-p/--port`), how
//! (`-P rtp|scream`, `-r` rate, `-c` channels), what to capture (`-i pulse|alsa|jack`, `-d` the
//! PulseAudio source or ALSA device) and `-v`; a bad value is an error naming the option and the rule. `-h` is the host, as in the
//! Scream senders; help is `--help`.

use crate::packetiser::{Packetiser, Protocol, RtpStart};

/// The port an RTP source in Tributary listens on by default (its RTCP: port + 1).
pub const DEFAULT_RTP_PORT: u16 = 40000;
/// Scream's default port.
pub const DEFAULT_SCREAM_PORT: u16 = 4010;

pub const USAGE: &str = "\
Usage: tributary send -h HOST [options]

Captures audio from this machine's PulseAudio or PipeWire (pipewire-pulse), an ALSA device or
JACK and sends it to a Tributary server as RTP (L16) or Scream, one packet of at most 1152 bytes
of audio each time the input has delivered one (6 ms at 48 kHz 16-bit stereo).

  -h, --host HOST       the Tributary server's address or name (required)
  -p, --port PORT       UDP port (default 40000 for RTP, 4010 for Scream)
  -P, --protocol PROTO  rtp (L16, big-endian; the default) or scream (16-bit little-endian)
  -r, --rate HZ         sample rate (default 48000; Scream: 44100 or 48000 times 1 to 8)
  -c, --channels N      channels, 1-8 (default 2)
  -i, --input API       pulse (PulseAudio or PipeWire; the default), alsa or jack
  -d, --device DEVICE   pulse: the source to capture (default: the server's default source); a
                        sink's output is its monitor, e.g. alsa_output.pci-0000_00_1b.0.analog-stereo.monitor
                        alsa: the capture device (default: default), e.g. pulse or hw:1,0
                        (a card's first device, arecord -l numbers the cards); jack: not used
  -n, --name NAME       PulseAudio stream name, or JACK client name (NAME_in) (default: Tributary sender)
  -v, --verbose         once a second: packets sent, send errors, what the sound server holds
                        (alsa, jack: overruns, frames lost when the sender fell behind)
      --no-sap          do not announce the RTP stream with SAP (by default it is announced to
                        224.2.127.254:9875 every 5 s, and deleted on exit)
      --help            this help

The PulseAudio server is the one PULSE_SERVER names, else the session's; the JACK server the one
JACK_DEFAULT_SERVER names (never started by the sender). 16-bit on the wire only.";

/// Where the audio comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    Pulse,
    Alsa,
    Jack,
}

/// Parsed options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub protocol: Protocol,
    pub rate: u32,
    pub channels: u8,
    pub input: Input,
    /// The PulseAudio source or the ALSA device; `None`: the default.
    pub device: Option<String>,
    pub stream_name: String,
    pub verbose: bool,
    /// Announce the RTP stream with SAP (off with `--no-sap`; Scream is never announced).
    pub sap: bool,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    Run(Options),
    Help,
}

/// Parses the arguments after `send`.
pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Parsed, String> {
    let mut host = None;
    let mut port = None;
    let mut o = Options {
        host: String::new(),
        port: 0,
        protocol: Protocol::Rtp,
        rate: 48_000,
        channels: 2,
        input: Input::Pulse,
        device: None,
        stream_name: "Tributary sender".into(),
        verbose: false,
        sap: true,
    };
    let mut it = args.iter().map(AsRef::as_ref);
    while let Some(arg) = it.next() {
        let name = match arg {
            "--help" => return Ok(Parsed::Help),
            "-v" | "--verbose" => {
                o.verbose = true;
                continue;
            }
            "--no-sap" => {
                o.sap = false;
                continue;
            }
            "-h" | "--host" => 'h',
            "-p" | "--port" => 'p',
            "-P" | "--protocol" => 'P',
            "-r" | "--rate" => 'r',
            "-c" | "--channels" => 'c',
            "-i" | "--input" => 'i',
            "-d" | "--device" => 'd',
            "-n" | "--name" => 'n',
            _ if arg.starts_with('-') => return Err(format!("{arg}: unknown option (see --help)")),
            _ => return Err(format!("{arg}: not an option (see --help)")),
        };
        let value = it
            .next()
            .ok_or_else(|| format!("{arg}: needs a value (see --help)"))?;
        let bad = |rule: &str| format!("{arg} {value}: {rule}");
        match name {
            'h' if value.is_empty() => return Err(bad("the Tributary server's address or name")),
            'h' => host = Some(value.to_owned()),
            'p' => {
                port = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|p| *p > 0)
                        .ok_or_else(|| bad("a UDP port is 1-65535"))?,
                )
            }
            'P' => {
                o.protocol = match value {
                    "rtp" => Protocol::Rtp,
                    "scream" => Protocol::Scream,
                    _ => return Err(bad("the protocol is rtp or scream")),
                }
            }
            'r' => {
                o.rate = value
                    .parse()
                    .map_err(|_| bad("a sample rate in Hz, e.g. 48000"))?
            }
            'c' => o.channels = value.parse().map_err(|_| bad("a channel count, 1-8"))?,
            'i' => {
                o.input = match value {
                    "pulse" => Input::Pulse,
                    "alsa" => Input::Alsa,
                    "jack" => Input::Jack,
                    _ => return Err(bad("the input is pulse, alsa or jack")),
                }
            }
            'd' => o.device = Some(value.to_owned()),
            _ => o.stream_name = value.to_owned(),
        }
    }
    o.host = host.ok_or("-h HOST: the Tributary server to send to is required (see --help)")?;
    o.port = port.unwrap_or(match o.protocol {
        Protocol::Rtp => DEFAULT_RTP_PORT,
        Protocol::Scream => DEFAULT_SCREAM_PORT,
    });
    if o.input == Input::Jack && o.device.is_some() {
        return Err(
            "-i jack -d: JACK capture takes no device (it connects to the system's capture ports)"
                .into(),
        );
    }
    // The format must be one the protocol carries: say so now, naming the options.
    let start = RtpStart {
        ssrc: 0,
        sequence: 0,
        timestamp: 0,
    };
    Packetiser::new(o.protocol, o.rate, o.channels, start)
        .map_err(|e| format!("-r {} -c {}: {e}", o.rate, o.channels))?;
    Ok(Parsed::Run(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Options {
        let Ok(Parsed::Run(o)) = parse(args) else {
            panic!("{args:?} do not parse to options")
        };
        o
    }

    #[test]
    fn defaults_are_rtp_l16_48k_stereo_to_port_40000_or_4010_for_scream() {
        let o = run(&["-h", "192.168.1.10"]);
        assert_eq!(
            (
                o.host.as_str(),
                o.port,
                o.protocol,
                o.rate,
                o.channels,
                o.device,
                o.verbose
            ),
            ("192.168.1.10", 40000, Protocol::Rtp, 48_000, 2, None, false)
        );
        assert_eq!(run(&["-h", "server", "-P", "scream"]).port, 4010);
        let o = run(&[
            "--host",
            "tributary.local",
            "--port",
            "16401",
            "--protocol",
            "scream",
            "--rate",
            "44100",
            "--channels",
            "1",
            "--device",
            "out.monitor",
            "--name",
            "Den",
            "--verbose",
        ]);
        assert_eq!(
            (
                o.host.as_str(),
                o.port,
                o.protocol,
                o.rate,
                o.channels,
                o.device.as_deref(),
                o.stream_name.as_str(),
                o.verbose
            ),
            (
                "tributary.local",
                16401,
                Protocol::Scream,
                44_100,
                1,
                Some("out.monitor"),
                "Den",
                true
            )
        );
        assert_eq!(parse(&["--help"]).unwrap(), Parsed::Help);
        assert_eq!(parse(&["-h", "x", "--help"]).unwrap(), Parsed::Help);
        assert!(run(&["-h", "x"]).sap && !run(&["-h", "x", "--no-sap"]).sap);
        assert_eq!(run(&["-h", "x"]).input, Input::Pulse);
        assert_eq!(run(&["-h", "x", "-i", "alsa"]).input, Input::Alsa);
        assert_eq!(run(&["-h", "x", "--input", "jack"]).input, Input::Jack);
    }

    #[test]
    fn bad_values_name_the_option_and_the_rule() {
        let cases: &[(&[&str], &str)] = &[
            (
                &[],
                "-h HOST: the Tributary server to send to is required (see --help)",
            ),
            (&["-h", "x", "-p", "0"], "-p 0: a UDP port is 1-65535"),
            (
                &["-h", "x", "--port", "70000"],
                "--port 70000: a UDP port is 1-65535",
            ),
            (
                &["-h", "x", "-P", "tcp"],
                "-P tcp: the protocol is rtp or scream",
            ),
            (
                &["-h", "x", "-r", "fast"],
                "-r fast: a sample rate in Hz, e.g. 48000",
            ),
            (&["-h", "x", "-c", "9"], "-r 48000 -c 9: 9 channels: 1 to 8"),
            (
                &["-h", "x", "-P", "scream", "-r", "32000"],
                "-r 32000 -c 2: 32000 Hz: Scream carries 44100 or 48000 Hz times 1 to 8",
            ),
            (&["-h"], "-h: needs a value (see --help)"),
            (
                &["-h", "x", "-i", "oss"],
                "-i oss: the input is pulse, alsa or jack",
            ),
            (
                &["-h", "x", "-i", "jack", "-d", "hw:1"],
                "-i jack -d: JACK capture takes no device (it connects to the system's capture ports)",
            ),
            (&["-x"], "-x: unknown option (see --help)"),
            (&["server"], "server: not an option (see --help)"),
        ];
        for (args, want) in cases {
            assert_eq!(parse(args).unwrap_err(), *want, "{args:?}");
        }
    }
}
