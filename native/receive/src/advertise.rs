//! mDNS (DNS-SD) advertising: the receiver answers as a `_tributary-sink._udp` service, as the
//! ESP32 firmware does, so a router with `auto_add_devices` adds it as a sink by itself. Its
//! TXT record says its `config_id` ([`crate::identity`]), what it receives (`type`) and in what
//! format, and its name; the SRV port is the port it listens on, the A records its addresses.
//! On stop it says goodbye (records with TTL 0), so the router forgets it within a second.
//!
//! It has no settings API (no `_http._tcp` service) and no volume of its own: the router
//! does not send it settings (see content/docs/autoconfig.mdx, Settings sync).
//! `mdns-sd` runs its own thread; its errors are printed, one every 10 s at most.

use crate::options::Options;
use mdns_sd::{DaemonEvent, ServiceDaemon, ServiceInfo, UnregisterStatus};
use std::time::{Duration, Instant};

/// The service type a sink advertises (daemon/src/services/discovery/txt.ts, DEVICE_TYPES).
pub const SERVICE_TYPE: &str = "_tributary-sink._udp.local.";
/// What Scream is advertised as: the receiver takes any Scream format (the engine converts
/// it), so the router's default, 16-bit 48 kHz stereo, which the sound server plays natively.
const SCREAM_FORMAT: (u8, u32, u8) = (16, 48_000, 2);

/// The channel layout name the router uses for a channel count (none for odd counts).
fn layout(channels: u8) -> Option<&'static str> {
    Some(match channels {
        1 => "mono",
        2 => "stereo",
        4 => "quad",
        6 => "5.1",
        8 => "7.1",
        _ => return None,
    })
}

/// The TXT record: the spec's sink fields (id, type, bit_depth, sample_rate, channels,
/// channel_layout) and the name. No `ip`: the A records say it, per interface.
pub fn txt_record(o: &Options, id: &str, name: &str) -> Vec<(String, String)> {
    let (kind, (bits, rate, channels)) = match o.rtp {
        Some(f) => (
            "rtp",
            (f.encoding.bit_depth() as u8, f.sample_rate, f.channels),
        ),
        None => ("scream", SCREAM_FORMAT),
    };
    let mut txt = vec![
        ("id".to_owned(), id.to_owned()),
        ("type".to_owned(), kind.to_owned()),
        ("bit_depth".to_owned(), bits.to_string()),
        ("sample_rate".to_owned(), rate.to_string()),
        ("channels".to_owned(), channels.to_string()),
    ];
    if let Some(l) = layout(channels) {
        txt.push(("channel_layout".to_owned(), l.to_owned()));
    }
    txt.push(("name".to_owned(), name.to_owned()));
    txt
}

/// This machine's host name (`localhost` if it has none).
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer and its length are ours; gethostname NUL-terminates within it.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(0);
    let name = String::from_utf8_lossy(&buf[..end]).into_owned();
    if ok && !name.is_empty() {
        name
    } else {
        "localhost".to_owned()
    }
}

/// The advertised service while the receiver runs.
pub struct Advertiser {
    daemon: ServiceDaemon,
    fullname: String,
}

impl Advertiser {
    /// Starts answering for the receiver `o` as `name` with `id`.
    pub fn start(o: &Options, id: &str, name: &str) -> Result<Self, String> {
        let err = |e: mdns_sd::Error| format!("cannot advertise over mDNS: {e}");
        let daemon = ServiceDaemon::new().map_err(err)?;
        // Its own host name, not this machine's: Avahi owns HOSTNAME.local and would rename
        // itself if another responder published other addresses (loopback) for it.
        let label: String = hostname()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let host = format!("{label}-tributary-receive-{}.local.", o.port);
        let txt = txt_record(o, id, name);
        let info = ServiceInfo::new(SERVICE_TYPE, name, &host, "", o.port, &txt[..])
            .map_err(err)?
            .enable_addr_auto();
        let fullname = info.get_fullname().to_owned();
        daemon.register(info).map_err(err)?;
        if let Ok(events) = daemon.monitor() {
            std::thread::Builder::new()
                .name("trib-mdns-log".into())
                .spawn(move || {
                    let mut last: Option<Instant> = None;
                    while let Ok(event) = events.recv() {
                        if let DaemonEvent::Error(e) = event {
                            if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
                                last = Some(Instant::now());
                                eprintln!("receive: mDNS: {e}");
                            }
                        }
                    }
                })
                .ok();
        }
        Ok(Self { daemon, fullname })
    }

    /// Says goodbye (waits up to a second for it to go out) and stops the mDNS thread.
    pub fn stop(self) {
        if let Ok(status) = self.daemon.unregister(&self.fullname) {
            if !matches!(
                status.recv_timeout(Duration::from_secs(1)),
                Ok(UnregisterStatus::OK)
            ) {
                eprintln!("receive: mDNS: the goodbye did not go out within 1 s");
            }
        }
        if let Ok(done) = self.daemon.shutdown() {
            let _ = done.recv_timeout(Duration::from_secs(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse, Parsed};

    fn options(args: &[&str]) -> Options {
        match parse(args).unwrap() {
            Parsed::Run(o) => o,
            Parsed::Help => unreachable!(),
        }
    }

    #[test]
    fn the_txt_record_says_what_the_receiver_plays() {
        let id = "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
        let txt = |args: &[&str]| {
            txt_record(&options(args), id, "Den")
                .into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            txt(&[]),
            format!("id={id} type=scream bit_depth=16 sample_rate=48000 channels=2 channel_layout=stereo name=Den")
        );
        assert_eq!(
            txt(&["-r", "L24/96000/6"]),
            format!("id={id} type=rtp bit_depth=24 sample_rate=96000 channels=6 channel_layout=5.1 name=Den")
        );
        assert!(!txt(&["-r", "L16/48000/3"]).contains("channel_layout"));
        assert!(!hostname().is_empty());
    }
}
