//! The engine's drift correction through the card's clock: a Scream sender whose clock runs
//! 300 ppm fast sends 1 kHz (1000.3 Hz in this machine's time) for 30 s. The receiver must
//! measure the drift (`-v`) and follow it, with no gap: in the last 4 s the recording plays the
//! sender's pitch within the readers' buffer correction (at most 50 ppm either way), which alone
//! could not reach it. The engine trusts its estimate after about 8 s and moves the rate by at
//! most 20 ppm a second, so 300 ppm is reached after about 23 s.

mod support;

use std::net::SocketAddr;
use std::time::Duration;
use support::common::{send_scream_paced, serial};
use support::hearing::precise_frequency;
use support::*;

const PPM: f64 = 300.0;

#[test]
fn follows_a_sender_whose_clock_runs_300_ppm_fast() {
    if !can_run("follows_a_sender_whose_clock_runs_300_ppm_fast") {
        return;
    }
    let _serial = serial();
    let mut session = Session::start("receive-drift", &["-u"]);
    let to = SocketAddr::new(LOCALHOST, session.port);
    std::thread::spawn(move || {
        send_scream_paced(LOCALHOST, to, 30.0, 3, &[(TONE, AMPLITUDE); 2], PPM);
    })
    .join()
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (x, lines) = session.stop();

    // The last report: the drift the engine measured.
    let drift = lines
        .iter()
        .rev()
        .filter_map(|l| {
            let at = l.find("drift ")? + "drift ".len();
            l[at..].split(' ').next()?.parse::<f64>().ok()
        })
        .next()
        .expect("-v reported a drift");
    eprintln!("measured drift {drift:+.1} ppm (sent {PPM:+.0})");
    assert!((drift - PPM).abs() < 30.0, "drift {drift} ppm, not {PPM}");

    let sounds = stretches(&x);
    assert_eq!(sounds.len(), 1, "one stretch of tone: {sounds:?}");
    let (from, to) = sounds[0];
    let settle = (0.3 * RATE) as usize;
    let edge = (0.05 * RATE) as usize;
    measure("drifting sender", &x[from + settle..to - edge], AMPLITUDE);
    // The last 4 s: the pitch the sender's clock gives its tone.
    let last = &x[to - edge - (4.0 * RATE) as usize..to - edge];
    let freq = precise_frequency(last, RATE).unwrap();
    let expected = TONE * (1.0 + PPM * 1e-6);
    eprintln!(
        "last 4 s: {freq:.4} Hz, {:+.1} ppm against 1 kHz",
        (freq / TONE - 1.0) * 1e6
    );
    assert!(
        (freq / expected - 1.0).abs() * 1e6 < 60.0,
        "{freq:.4} Hz, not the sender's {expected:.4} Hz"
    );
}
