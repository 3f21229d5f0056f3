//! One sender per source. Two senders whose packets match one source (two RTP streams, two
//! SSRCs, on one port; two programs sending Scream from one address; two PCs with one tag)
//! would interleave their packets in its buffer and play as noise. The source locks onto the
//! first sender it hears, by address, port and SSRC; packets of any other sender are dropped
//! and counted while the locked one is heard, and the source moves to a new sender once the
//! locked one has been silent for [`HOLD_S`] (a sender that restarted, with a new port or
//! SSRC, plays again after at most that long). The engine thread calls [`SenderLock::admit`]
//! for every packet; it allocates nothing.

use crate::source::counters::SourceCounters;
use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;

/// How long the locked sender may be silent before another takes its place, seconds. Senders
/// send a packet every 1-20 ms: two at once are told apart at once, and a sender that restarts
/// loses at most this much more than its restart.
pub const HOLD_S: f64 = 0.2;

/// Who sent a packet: its address and port, and the RTP SSRC (0 for Scream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderId {
    pub ip: IpAddr,
    pub port: u16,
    pub ssrc: u32,
}

/// The sender a source plays, and when it was last heard.
#[derive(Clone, Debug, Default)]
pub struct SenderLock {
    locked: Option<(SenderId, f64)>,
}

impl SenderLock {
    /// Whether a packet from `id` arriving at `arrival_s` plays; counts what does not, and
    /// every move to another sender, in `c`.
    pub fn admit(&mut self, id: SenderId, arrival_s: f64, c: &SourceCounters) -> bool {
        match &mut self.locked {
            Some((locked, heard)) if *locked == id => {
                *heard = heard.max(arrival_s);
                true
            }
            Some((_, heard)) if arrival_s - *heard < HOLD_S => {
                c.competing.fetch_add(1, Relaxed);
                c.competing_sender.store(pack_sender(&id), Relaxed);
                false
            }
            Some(_) => {
                c.sender_changes.fetch_add(1, Relaxed);
                self.locked = Some((id, arrival_s));
                true
            }
            None => {
                self.locked = Some((id, arrival_s));
                true
            }
        }
    }
}

/// Bit set in a packed sender: one was recorded.
const PRESENT: u64 = 1 << 63;
/// Bit set in a packed sender: it was IPv6 (only the port is kept).
const V6: u64 = 1 << 62;

/// A sender in one atomic word: IPv4 address and port, or for IPv6 the port alone.
pub fn pack_sender(id: &SenderId) -> u64 {
    match id.ip {
        IpAddr::V4(v4) => PRESENT | (u64::from(u32::from(v4)) << 16) | u64::from(id.port),
        IpAddr::V6(_) => PRESENT | V6 | u64::from(id.port),
    }
}

/// The sender [`pack_sender`] packed, in words (`192.168.1.20:50000`), or None.
pub fn describe_sender(packed: u64) -> Option<String> {
    if packed & PRESENT == 0 {
        return None;
    }
    let port = packed & 0xffff;
    if packed & V6 != 0 {
        return Some(format!("an IPv6 address, port {port}"));
    }
    let ip = std::net::Ipv4Addr::from(((packed >> 16) & 0xffff_ffff) as u32);
    Some(format!("{ip}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn id(last: u8, port: u16, ssrc: u32) -> SenderId {
        SenderId {
            ip: IpAddr::V4(Ipv4Addr::new(192, 168, 1, last)),
            port,
            ssrc,
        }
    }

    #[test]
    fn the_first_sender_plays_and_a_second_one_at_the_same_time_is_dropped_and_counted() {
        let c = SourceCounters::default();
        let mut lock = SenderLock::default();
        let (a, b) = (id(10, 5004, 1), id(20, 5004, 2));
        let mut played = [0; 2];
        // Both send a packet every 5 ms for a second, interleaved.
        for k in 0..200 {
            let t = f64::from(k) * 0.005;
            played[0] += usize::from(lock.admit(a, t, &c));
            played[1] += usize::from(lock.admit(b, t + 0.002, &c));
        }
        assert_eq!(played, [200, 0]);
        assert_eq!(c.competing.load(Relaxed), 200);
        assert_eq!(c.sender_changes.load(Relaxed), 0);
        assert_eq!(
            describe_sender(c.competing_sender.load(Relaxed)).as_deref(),
            Some("192.168.1.20:5004")
        );
    }

    #[test]
    fn a_new_ssrc_or_port_takes_over_once_the_locked_sender_is_silent_for_the_hold() {
        let c = SourceCounters::default();
        let mut lock = SenderLock::default();
        let first = id(10, 40000, 7);
        assert!(lock.admit(first, 1.0, &c));
        let restarted = id(10, 40001, 8);
        assert!(!lock.admit(restarted, 1.0 + HOLD_S - 0.01, &c), "too soon");
        assert!(lock.admit(restarted, 1.0 + HOLD_S + 0.01, &c));
        assert!(
            !lock.admit(first, 1.0 + HOLD_S + 0.02, &c),
            "the old one is now the other"
        );
        assert_eq!(c.sender_changes.load(Relaxed), 1);
        assert_eq!(c.competing.load(Relaxed), 2);
        // Same address and port, another SSRC: another sender.
        assert!(!lock.admit(id(10, 40001, 9), 1.3, &c));
    }

    #[test]
    fn packets_out_of_order_keep_the_lock_fresh_and_senders_pack_into_one_word() {
        let c = SourceCounters::default();
        let mut lock = SenderLock::default();
        let a = id(10, 1, 1);
        assert!(lock.admit(a, 2.0, &c));
        assert!(
            lock.admit(a, 1.9, &c),
            "an older arrival time does not age the lock"
        );
        assert!(!lock.admit(id(11, 1, 1), 2.1, &c));
        assert_eq!(describe_sender(0), None);
        let v6 = SenderId {
            ip: "fe80::1".parse().unwrap(),
            port: 9,
            ssrc: 0,
        };
        assert_eq!(
            describe_sender(pack_sender(&v6)).as_deref(),
            Some("an IPv6 address, port 9")
        );
        let top = id(255, 65535, 0);
        assert_eq!(
            describe_sender(pack_sender(&top)).as_deref(),
            Some("192.168.1.255:65535")
        );
    }
}
