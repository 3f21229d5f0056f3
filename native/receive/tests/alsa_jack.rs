//! `tributary-receive -o alsa` and `-o jack` against what runs without a sound card or a kernel
//! module: ALSA's built-in `null` PCM (made the `default` device by an `.asoundrc` in a home of
//! the test's own), ALSA's `jack` PCM (libasound2-plugins) and JACK itself, both on a
//! `jackd -d dummy` of the test's own (its clock is this machine's). What must hold: the device
//! opens and its callback takes frames, at 48 kHz where a clock paces it (the JACK server's), the
//! JACK client's ports exist and are connected to the system ports, SIGTERM ends it cleanly; a
//! missing ALSA device, no JACK server, and a JACK server at another rate are errors in words
//! and exit 1.

mod support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::common::{free_udp_port, have_tool, serial, skip_for_environment};
use support::jackd::Jackd;
use support::{run_to_exit, wait_exit};

/// How far the measured rate may be from 48 kHz (the report's timing, a period's granularity).
const RATE_TOLERANCE: f64 = 0.03;

/// A home whose `.asoundrc` makes ALSA's `default` the `null` PCM.
fn alsa_home(test: &str) -> PathBuf {
    let home = std::env::temp_dir().join(format!("trib-alsa-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join(".asoundrc"), "pcm.!default { type null }\n").unwrap();
    home
}

/// The receiver with `args`, ALSA configured from `home`, JACK's server `jack` (never started
/// for it), no PulseAudio server (ALSA's `pulse` PCM fails at once when cpal lists it).
fn receiver(home: &PathBuf, jack: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tributary-receive"))
        .args(["-u", "-p", &free_udp_port().to_string()])
        // Not advertised: the test runs on the machine's own network.
        .arg("--no-advertise")
        .args(args)
        .env("HOME", home)
        .env("JACK_DEFAULT_SERVER", jack)
        .env("JACK_NO_START_SERVER", "1")
        .env(
            "PULSE_SERVER",
            format!("unix:{}", home.join("no-pulse").display()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the receiver runs")
}

type Lines = Arc<Mutex<Vec<(Instant, String)>>>;

/// The program's stderr lines, each with when it arrived.
fn timed_lines(child: &mut Child) -> Lines {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let stderr = child.stderr.take().unwrap();
    let into = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            into.lock().unwrap().push((Instant::now(), line));
        }
    });
    lines
}

/// The frames a `-v` line says were played.
fn frames_played(line: &str) -> Option<u64> {
    line.split(", ")
        .find_map(|part| part.strip_suffix(" frames played"))
        .and_then(|n| n.parse().ok())
}

/// Runs the receiver for `seconds`, then SIGTERM (a clean exit within 3 s); its line saying
/// where it plays, its last `-v` line, and the frames a second its device took between its
/// first report and its last, at least `span` seconds apart.
fn play_for(mut rx: Child, seconds: f64, span: f64) -> (String, String, f64) {
    let lines = timed_lines(&mut rx);
    std::thread::sleep(Duration::from_secs_f64(seconds));
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(rx.id() as i32, libc::SIGTERM) };
    let status = wait_exit(&mut rx, Duration::from_secs(3));
    std::thread::sleep(Duration::from_millis(100));
    let lines = lines.lock().unwrap().clone();
    let text: Vec<String> = lines.iter().map(|(_, l)| l.clone()).collect();
    eprintln!("{}", text.join("\n"));
    assert!(status.success(), "SIGTERM: a clean exit, not {status}");
    assert_eq!(text.last().map(String::as_str), Some("receive: stopped"));
    let reports: Vec<(Instant, u64)> = lines
        .iter()
        .filter_map(|(t, l)| Some((*t, frames_played(l)?)))
        .collect();
    assert!(reports.len() >= 2, "-v reports the frames played: {text:?}");
    let ((t0, f0), (t1, f1)) = (reports[0], reports[reports.len() - 1]);
    assert!(
        t1.duration_since(t0).as_secs_f64() > span * 0.95,
        "reports {span} s apart: {text:?}"
    );
    let rate = (f1 - f0) as f64 / t1.duration_since(t0).as_secs_f64();
    eprintln!(
        "{} frames in {:.3} s between the first and the last report: {rate:.0} frames/s",
        f1 - f0,
        t1.duration_since(t0).as_secs_f64()
    );
    let playing = text
        .iter()
        .find(|l| l.contains("playing on"))
        .expect("the start line");
    let last = text.iter().rev().find(|l| l.contains("card:")).unwrap();
    (playing.clone(), last.clone(), rate)
}

fn near_48k(rate: f64) -> bool {
    (rate / 48_000.0 - 1.0).abs() < RATE_TOLERANCE
}

fn can_run_jack(test: &str) -> bool {
    if !have_tool("jackd") || !have_tool("jack_lsp") {
        skip_for_environment(test, "needs jackd and jack_lsp (Debian: jackd2)");
        return false;
    }
    true
}

#[test]
fn alsa_plays_on_alsas_null_pcm_and_stops_on_sigterm() {
    let _serial = serial();
    let home = alsa_home("null");
    let rx = receiver(&home, "trib-no-jack", &["-o", "alsa", "-v"]);
    // Not longer: with nothing pacing it the device's thread (at real-time priority) and the
    // engine run flat out.
    let (playing, _, rate) = play_for(rx, 2.6, 1.0);
    assert!(
        playing.contains("playing on the ALSA device default"),
        "{playing}"
    );
    // alsa-lib's null PCM has no clock: it takes whatever is written at once (alsa-lib 1.2.8;
    // no pacing to measure against), so what holds is that it takes frames, at least as fast
    // as a card would.
    assert!(
        rate > 48_000.0 * (1.0 - RATE_TOLERANCE),
        "the null PCM takes frames: {rate:.0} frames/s"
    );
}

#[test]
fn alsa_through_alsas_jack_pcm_plays_at_the_jack_servers_rate() {
    if !can_run_jack("alsa_through_alsas_jack_pcm_plays_at_the_jack_servers_rate") {
        return;
    }
    let _serial = serial();
    let jackd = Jackd::start("alsa", 48_000);
    let home = alsa_home("jack-pcm");
    let rx = receiver(&home, &jackd.name, &["-o", "alsa", "-d", "jack", "-v"]);
    let (playing, last, rate) = play_for(rx, 3.8, 2.0);
    assert!(
        playing.contains("playing on the ALSA device jack"),
        "{playing}"
    );
    assert!(
        near_48k(rate),
        "the JACK server's clock paces ALSA's jack PCM: {rate:.0} frames/s"
    );
    assert!(
        last.ends_with("underruns 0, overflows 0"),
        "the device never lacked frames: {last}"
    );
}

#[test]
fn jack_registers_its_ports_connects_them_and_plays_at_the_servers_rate() {
    if !can_run_jack("jack_registers_its_ports_connects_them_and_plays_at_the_servers_rate") {
        return;
    }
    let _serial = serial();
    let jackd = Jackd::start("jack", 48_000);
    let home = alsa_home("jack");
    let rx = receiver(&home, &jackd.name, &["-o", "jack", "-n", "TribTest", "-v"]);
    let watcher = std::thread::spawn({
        let name = jackd.name.clone();
        move || {
            std::thread::sleep(Duration::from_millis(1500));
            let probe = Jackd::attach(&name);
            (probe.ports(), probe.connections())
        }
    });
    let (playing, last, rate) = play_for(rx, 3.8, 2.0);
    let (ports, connections) = watcher.join().unwrap();
    eprintln!("jack_lsp -c while playing:\n{}", connections.join("\n"));
    for port in ["TribTest_out:out_0", "TribTest_out:out_1"] {
        assert!(
            ports.iter().any(|p| p == port),
            "{port} registered: {ports:?}"
        );
    }
    let connected = |port: &str, to: &str| {
        let at = connections.iter().position(|l| l == port);
        at.is_some_and(|i| {
            connections[i + 1..]
                .iter()
                .take_while(|l| l.starts_with(' '))
                .any(|l| l.trim() == to)
        })
    };
    assert!(
        connected("TribTest_out:out_0", "system:playback_1"),
        "{connections:?}"
    );
    assert!(
        connected("TribTest_out:out_1", "system:playback_2"),
        "{connections:?}"
    );
    assert!(
        playing.contains("playing on the JACK server as TribTest_out (10.3 ms kept ready)"),
        "{playing}"
    );
    assert!(
        near_48k(rate),
        "the process callback takes 48 kHz: {rate:.0} frames/s"
    );
    assert!(
        last.ends_with("underruns 0, overflows 0"),
        "the process callback never lacked frames: {last}"
    );
    // Gone from the server once stopped.
    assert!(!jackd.ports().iter().any(|p| p.starts_with("TribTest_out:")));
}

#[test]
fn jack_at_another_rate_is_refused_with_both_rates_named() {
    if !can_run_jack("jack_at_another_rate_is_refused_with_both_rates_named") {
        return;
    }
    let _serial = serial();
    let jackd = Jackd::start("rate", 44_100);
    let home = alsa_home("rate");
    let (status, text) = run_to_exit(receiver(&home, &jackd.name, &["-o", "jack"]));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains("the JACK server as Tributary_out does not play 48000 Hz 2 ch float (it plays 44100 Hz F32)")
            && text.contains("start jackd at -r 48000"),
        "{text}"
    );
}

#[test]
fn without_a_jack_server_it_asks_whether_jackd_is_running() {
    let home = alsa_home("no-jack");
    let server = format!("trib-none-{}", std::process::id());
    let (status, text) = run_to_exit(receiver(&home, &server, &["-o", "jack"]));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "tributary receive: cannot connect to a JACK server ({server}): is jackd running (for \
             this user)?"
        )),
        "{text}"
    );
}

#[test]
fn an_alsa_device_that_does_not_exist_is_named_with_the_devices_there_are() {
    let home = alsa_home("missing");
    let (status, text) = run_to_exit(receiver(
        &home,
        "trib-no-jack",
        &["-o", "alsa", "-d", "nosuchcard"],
    ));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains("no ALSA device nosuchcard that can be opened now")
            && text.contains("the devices here are default"),
        "{text}"
    );
}
