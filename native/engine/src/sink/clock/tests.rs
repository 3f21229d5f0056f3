//! The seam holds another clock: a sink paced by a clock its "card" pulls (a test double of a
//! sound card's callback asking for packets through an atomic) sends exactly the packets asked
//! for, through the same sink code, and nothing while not asked; and what it sends when asked
//! is not counted late.

use super::*;
use crate::desired::{SinkProtocol, SinkSpec};
use crate::sink::Sink;
use std::net::{Ipv4Addr, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use tributary_dsp::ChannelLayout;

/// Due whenever the card has asked for more packets than were sent.
struct Pulled {
    asked: Arc<AtomicU64>,
    sent: u64,
    period: Duration,
    start: Instant,
}

impl SinkClock for Pulled {
    fn period(&self) -> Duration {
        self.period
    }
    fn deadline(&self) -> Instant {
        if self.asked.load(Relaxed) > self.sent {
            self.start
        } else {
            self.start + Duration::from_secs(3600)
        }
    }
    fn advance(&mut self, _now: Instant) -> (Duration, bool) {
        self.sent += 1;
        (Duration::ZERO, false)
    }
    fn grid(&self) -> (Instant, u64) {
        (self.start, self.sent)
    }
    fn continue_from(&mut self, _previous: &dyn SinkClock) {}
    /// Pulled: what the card asks for goes at once (its deadline is when it asked).
    fn renders_ahead(&self) -> bool {
        false
    }
}

#[test]
fn a_sink_on_a_pulled_clock_sends_what_is_asked_for_and_nothing_else() {
    let rx = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    rx.set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let tx = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let spec = SinkSpec {
        ip: Some(Ipv4Addr::LOCALHOST.into()),
        port: rx.local_addr().unwrap().port(),
        ..SinkSpec::new(
            "card",
            SinkProtocol::Scream,
            48_000,
            16,
            ChannelLayout::STEREO,
        )
    };
    let start = Instant::now();
    let asked = Arc::new(AtomicU64::new(0));
    let clock = Pulled {
        asked: asked.clone(),
        sent: 0,
        period: Duration::from_millis(6),
        start,
    };
    let mut sink = Sink::new(&spec, start, 1)
        .unwrap()
        .with_clock(Box::new(clock));
    let run = |sink: &mut Sink| {
        let now = Instant::now();
        while sink.deadline() <= now {
            sink.tick(&mut [], &mut [], now, 0.0, &tx);
        }
    };
    let mut buf = [0u8; 2048];
    let mut received = || std::iter::from_fn(|| rx.recv(&mut buf).ok()).count();
    run(&mut sink);
    assert_eq!(received(), 0, "not asked: nothing sent");
    // The card asks 40 ms after the clock's start, which stays its deadline: a packet sent when
    // asked is not late (a pulled clock's render goes out at once, not held to that deadline,
    // and its lateness is the clock's own: none).
    std::thread::sleep(Duration::from_millis(40));
    asked.store(3, Relaxed);
    run(&mut sink);
    assert_eq!(received(), 3, "three asked, three sent");
    let late_us = sink.counters.max_late_us.load(Relaxed);
    assert!(
        late_us < 20_000,
        "a pulled packet counted {late_us} us late"
    );
    run(&mut sink);
    assert_eq!(received(), 0, "nothing more until asked");
}
