//! Sends the SAP announcement of the RTP stream ([`crate::sap`]) every [`sap::INTERVAL_S`] s to
//! 224.2.127.254:9875 (multicast TTL 64, the product's SAP TTL), on a thread of its own, and the
//! deletion when it stops. Failed sends are counted and said once every 10 s at most; they never
//! stop the audio.

use crate::sap::{self, Session};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The multicast TTL of announcements.
const TTL: u32 = 64;

/// The announcing thread.
pub struct Announcer {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// The address this machine sends to `dest` from (the `o=` origin and the SAP source).
pub fn origin_for(dest: Ipv4Addr) -> Result<Ipv4Addr, String> {
    let probe = UdpSocket::bind("0.0.0.0:0").map_err(|e| e.to_string())?;
    probe.connect((dest, 9)).map_err(|e| e.to_string())?;
    match probe.local_addr().map_err(|e| e.to_string())? {
        SocketAddr::V4(a) => Ok(*a.ip()),
        SocketAddr::V6(_) => Err("no IPv4 address".into()),
    }
}

/// The session of a stream to `dest` named `name`: a random session id (a receiver names the
/// stream by `o=`'s user name and session id, so two senders started in the same second must
/// not share one), version NTP-style seconds now.
pub fn session_for(
    dest: SocketAddrV4,
    name: &str,
    payload_type: u8,
    rate: u32,
    channels: u8,
    ptime_ms: f64,
) -> Result<Session, String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
        + 2_208_988_800;
    Ok(Session {
        origin: origin_for(*dest.ip())?,
        id: u64::from(crate::packetiser::random_start().ssrc),
        version: now,
        name: name.to_owned(),
        destination: *dest.ip(),
        port: dest.port(),
        payload_type,
        encoding: "L16",
        rate,
        channels,
        ptime_ms,
    })
}

impl Announcer {
    /// Starts announcing `session`.
    pub fn start(session: Session) -> Result<Self, String> {
        let socket =
            UdpSocket::bind("0.0.0.0:0").map_err(|e| format!("cannot open the SAP socket: {e}"))?;
        socket
            .set_multicast_ttl_v4(TTL)
            .map_err(|e| format!("cannot set the SAP TTL: {e}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("trib-sap".into())
            .spawn(move || announce(&socket, &session, &flag))
            .map_err(|e| format!("cannot start the SAP thread: {e}"))?;
        Ok(Self { stop, thread })
    }

    /// Sends the deletion and stops.
    pub fn stop(self) {
        self.stop.store(true, Relaxed);
        let _ = self.thread.join();
    }
}

fn announce(socket: &UdpSocket, session: &Session, stop: &AtomicBool) {
    let text = sap::sdp(session);
    let to = SocketAddrV4::new(sap::SAP_GROUP, sap::SAP_PORT);
    let mut errors = 0u64;
    let mut said: Option<Instant> = None;
    let mut send = |delete: bool| {
        if let Err(e) = socket.send_to(&sap::packet(session.origin, &text, delete), to) {
            errors += 1;
            if said.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
                said = Some(Instant::now());
                eprintln!("send: SAP announcement to {to} failed ({errors} so far): {e}");
            }
        }
    };
    let every = Duration::from_secs(sap::INTERVAL_S);
    let mut next = Instant::now();
    while !stop.load(Relaxed) {
        if Instant::now() >= next {
            send(false);
            next += every;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    send(true);
}
