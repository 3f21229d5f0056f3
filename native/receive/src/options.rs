//! The command line of `tributary receive`: the Scream Unix receiver's options where they
//! apply (`-u -p -i -g -o -d -s -n -t -l -v`) and `--no-advertise`, parsed into [`Options`]; a bad value is an error
//! naming the option and the rule.

use std::net::{IpAddr, Ipv4Addr};
use tributary_dsp::SampleFormat;
use tributary_engine::wire::rtp::RtpFormat;

/// Scream's default port.
pub const DEFAULT_PORT: u16 = 4010;
/// Scream's default multicast group.
pub const DEFAULT_GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 77, 77);
/// The sound server's target latency (`-t`), ms.
pub const DEFAULT_TARGET_MS: u32 = 50;
/// The bounds of `-t`, ms.
pub const TARGET_MS: (u32, u32) = (10, 2000);
/// The bounds of `-l` (the engine's jitter buffer ceiling), ms.
pub const BUFFER_MS: (u32, u32) = (20, 200);

pub const USAGE: &str = "\
Usage: tributary receive [options]

Plays Scream (or RTP) audio from the network on this machine's PulseAudio or PipeWire (pipewire-pulse),
ALSA or JACK, through Tributary's jitter buffer and drift correction.

  -u            unicast: receive audio sent to this machine (use it with Tributary)
  -p PORT       UDP port (default 4010)
  -i ADDRESS    local IPv4 address to listen on (default: all)
  -g GROUP      multicast group to join without -u (default 239.255.77.77)
  -r FORMAT     receive RTP instead of Scream, in FORMAT: L16 or L24/RATE/CHANNELS, e.g.
                L16/48000/2 (a static payload type, 10 or 11, plays as its own format)
  -o OUTPUT     audio back end: pulse (PulseAudio or PipeWire, the default), alsa or jack
  -d DEVICE     ALSA device with -o alsa (default: default): pipewire, pulse, jack, oss,
                hw:1,0 (a card's first device, aplay -l numbers the cards) or a card's name
  -s SINK       PulseAudio sink name (default: the server's default sink)
  -n NAME       PulseAudio stream name, or JACK client name + _out (default: Tributary), and
                the name advertised over mDNS (default: the host name)
  -t MS         target latency of the sound server or ALSA device, 10-2000 ms (default 50)
  -l MS         most audio the jitter buffer may hold, 20-200 ms (default 200)
  -v            verbose: the sender, and once a second the buffer level, drift and underruns
  --no-advertise  do not advertise the receiver over mDNS (by default it answers as a
                _tributary-sink._udp service, so a router with auto_add_devices adds it as a sink)
  -h, --help    this help

The PulseAudio server is the one PULSE_SERVER names, else the session's; the JACK server is
JACK_DEFAULT_SERVER's (it is not started for you), and the client's ports are connected to
system:playback_1 and _2. The receiver's config_id (its identity as a sink) is kept in
$XDG_STATE_HOME/tributary/receiver-id (~/.local/state without XDG_STATE_HOME; receiver-id-PORT for
a port other than 4010).";

/// Where the audio plays (`-o`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backend {
    Pulse,
    Alsa,
    Jack,
}

/// Parsed options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub unicast: bool,
    pub port: u16,
    pub interface: Option<Ipv4Addr>,
    pub group: Ipv4Addr,
    /// RTP in this format instead of Scream (`-r`).
    pub rtp: Option<RtpFormat>,
    pub output: Backend,
    /// The ALSA device (`-d`, with `-o alsa` only).
    pub device: Option<String>,
    pub sink: Option<String>,
    pub stream_name: String,
    /// Whether `-n` named it (then the stream name is also the advertised name).
    pub named: bool,
    /// Advertise over mDNS (off with `--no-advertise`).
    pub advertise: bool,
    pub target_ms: u32,
    /// The jitter buffer's ceiling; `None`: the engine's default (200 ms).
    pub buffer_ms: Option<u32>,
    pub verbose: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            unicast: false,
            port: DEFAULT_PORT,
            interface: None,
            group: DEFAULT_GROUP,
            rtp: None,
            output: Backend::Pulse,
            device: None,
            sink: None,
            stream_name: "Tributary".into(),
            named: false,
            advertise: true,
            target_ms: DEFAULT_TARGET_MS,
            buffer_ms: None,
            verbose: false,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    Run(Options),
    Help,
}

impl Options {
    /// The address the receiver binds.
    pub fn bind(&self) -> IpAddr {
        IpAddr::V4(self.interface.unwrap_or(Ipv4Addr::UNSPECIFIED))
    }
}

/// Parses the arguments after `receive` (flags may be grouped: `-uv`).
pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Parsed, String> {
    let mut o = Options::default();
    let mut it = args.iter().map(AsRef::as_ref);
    while let Some(arg) = it.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(Parsed::Help);
        }
        if arg == "--no-advertise" {
            o.advertise = false;
            continue;
        }
        if arg.starts_with("--") {
            return Err(format!("{arg}: unknown option (see --help)"));
        }
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) else {
            return Err(format!("{arg}: not an option (see --help)"));
        };
        for (at, flag) in flags.char_indices() {
            let rest = &flags[at + flag.len_utf8()..];
            if let Some(apply) = valued(flag) {
                let value = if rest.is_empty() {
                    it.next()
                        .ok_or_else(|| format!("-{flag}: needs a value (see --help)"))?
                } else {
                    rest
                };
                apply(&mut o, value).map_err(|e| format!("-{flag} {value}: {e}"))?;
                break;
            }
            match flag {
                'u' => o.unicast = true,
                'v' => o.verbose = true,
                _ => return Err(format!("-{flag}: unknown option (see --help)")),
            }
        }
    }
    if o.device.is_some() && o.output != Backend::Alsa {
        return Err("-d: an ALSA device, with -o alsa".into());
    }
    Ok(Parsed::Run(o))
}

type Setter = fn(&mut Options, &str) -> Result<(), String>;

fn valued(flag: char) -> Option<Setter> {
    Some(match flag {
        'p' => |o, v| {
            o.port = v
                .parse()
                .ok()
                .filter(|p| *p > 0)
                .ok_or("a UDP port is 1-65535")?;
            Ok(())
        },
        'i' => |o, v| {
            o.interface = Some(
                v.parse()
                    .map_err(|_| "an IPv4 address, e.g. 192.168.1.44")?,
            );
            Ok(())
        },
        'g' => |o, v| {
            let g: Ipv4Addr = v.parse().map_err(|_| "an IPv4 multicast group")?;
            if !g.is_multicast() {
                return Err("a multicast group is in 224.0.0.0/4".into());
            }
            o.group = g;
            Ok(())
        },
        'r' => |o, v| {
            o.rtp = Some(
                rtp_format(v).ok_or("an RTP format, L16 or L24/RATE/CHANNELS, e.g. L16/48000/2")?,
            );
            Ok(())
        },
        'o' => |o, v| {
            o.output = match v {
                "pulse" => Backend::Pulse,
                "alsa" => Backend::Alsa,
                "jack" => Backend::Jack,
                "raw" => return Err("the raw back end is not built; pulse, alsa or jack".into()),
                _ => return Err("the back end is pulse, alsa or jack".into()),
            };
            Ok(())
        },
        'd' => |o, v| {
            o.device = Some(v.to_owned());
            Ok(())
        },
        's' => |o, v| {
            o.sink = Some(v.to_owned());
            Ok(())
        },
        'n' => |o, v| {
            o.stream_name = v.to_owned();
            o.named = true;
            Ok(())
        },
        't' => |o, v| {
            o.target_ms = in_range(v, TARGET_MS)?;
            Ok(())
        },
        'l' => |o, v| {
            o.buffer_ms = Some(in_range(v, BUFFER_MS)?);
            Ok(())
        },
        _ => return None,
    })
}

/// `L16/48000/2` (an SDP rtpmap's encoding name, clock rate and channels).
fn rtp_format(v: &str) -> Option<RtpFormat> {
    let mut parts = v.split('/');
    let encoding: SampleFormat = parts.next()?.parse().ok()?;
    if !matches!(encoding, SampleFormat::S16Be | SampleFormat::S24Be) {
        return None;
    }
    let rate = parts.next()?.parse().ok()?;
    let channels = parts.next()?.parse().ok()?;
    if parts.next().is_some() {
        return None;
    }
    RtpFormat::new(encoding, rate, channels)
}

fn in_range(v: &str, (lo, hi): (u32, u32)) -> Result<u32, String> {
    v.parse()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("milliseconds, {lo}-{hi}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Options {
        match parse(args).unwrap() {
            Parsed::Run(o) => o,
            Parsed::Help => panic!("help"),
        }
    }

    #[test]
    fn the_scream_receivers_options_parse_and_bad_values_name_the_option() {
        let err = |a: &[&str]| parse(a).unwrap_err();
        let o = run(&[
            "-uv", "-p", "4020", "-t60", "-l", "100", "-s", "null", "-o", "pulse",
        ]);
        assert!(o.unicast && o.verbose);
        assert_eq!((o.port, o.target_ms, o.buffer_ms), (4020, 60, Some(100)));
        assert_eq!(o.sink.as_deref(), Some("null"));
        assert_eq!(o.rtp, None);
        let rtp = run(&["-r", "L24/96000/2"]).rtp.unwrap();
        assert_eq!(
            (rtp.encoding, rtp.sample_rate, rtp.channels),
            (SampleFormat::S24Be, 96_000, 2)
        );
        assert!(err(&["-r", "s16le/48000/2"]).starts_with("-r s16le/48000/2: an RTP format"));
        assert!(err(&["-r", "L16/48000/9"]).starts_with("-r L16/48000/9: an RTP format"));
        assert_eq!(run(&[]), Options::default());
        assert!(Options::default().advertise && !run(&["--no-advertise", "-u"]).advertise);
        let named = run(&["-n", "Den"]);
        assert!(named.named && named.stream_name == "Den" && !Options::default().named);
        assert_eq!(
            err(&["--no-such"]),
            "--no-such: unknown option (see --help)"
        );
        assert_eq!(parse(&["--help"]).unwrap(), Parsed::Help);
        assert_eq!(err(&["-t", "5"]), "-t 5: milliseconds, 10-2000");
        assert_eq!(err(&["-l", "500"]), "-l 500: milliseconds, 20-200");
        assert!(err(&["-o", "raw"]).contains("not built"));
        assert_eq!(
            err(&["-o", "oss"]),
            "-o oss: the back end is pulse, alsa or jack"
        );
        let alsa = run(&["-o", "alsa", "-d", "pulse"]);
        assert_eq!(
            (alsa.output, alsa.device.as_deref()),
            (Backend::Alsa, Some("pulse"))
        );
        assert_eq!(run(&["-o", "jack"]).output, Backend::Jack);
        assert_eq!(err(&["-d", "pulse"]), "-d: an ALSA device, with -o alsa");
        assert!(err(&["-g", "10.0.0.1"]).contains("224.0.0.0/4"));
        assert_eq!(err(&["-p"]), "-p: needs a value (see --help)");
        assert_eq!(err(&["-x"]), "-x: unknown option (see --help)");
    }
}
