//! The one thread of WebRTC listening: it reads every sink's tap and encodes Opus
//! ([`super::feed::Feed`]), receives on the server's UDP sockets and hands each datagram to
//! the session it belongs to, feeds str0m its timeouts, sends what str0m transmits, and frees
//! sessions that closed or went quiet. It wakes for a datagram or every [`TICK`].

use crate::sink::listen::whep::state::{lock, State};
use std::collections::HashMap;
use std::net::UdpSocket;
use std::os::fd::AsRawFd;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use str0m::net::{Protocol, Receive};
use str0m::{Input, Output};

/// The longest the thread sleeps (a 20 ms packet leaves at most this late).
pub const TICK: Duration = Duration::from_millis(5);

/// Runs until `stop` or until no session is left (the sockets close with the thread).
pub fn run(shared: &Arc<Mutex<State>>, stop: &AtomicBool) {
    let mut buf = vec![0u8; 2000];
    loop {
        let fds = {
            let state = lock(shared);
            state
                .sockets
                .iter()
                .map(AsRawFd::as_raw_fd)
                .collect::<Vec<_>>()
        };
        wait_readable(&fds, TICK);
        let mut state = lock(shared);
        if stop.load(Relaxed) || state.sessions.is_empty() {
            state.sockets.clear();
            state.feeds.clear();
            state.running = false;
            return;
        }
        let now = Instant::now();
        receive(&mut state, &mut buf, now);
        deliver(&mut state, now);
        drive(&mut state, now);
        expire(&mut state, now);
    }
}

fn wait_readable(fds: &[i32], timeout: Duration) {
    let mut polls: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    // SAFETY: `polls` is a valid array of `polls.len()` pollfd structs we own.
    unsafe {
        libc::poll(
            polls.as_mut_ptr(),
            polls.len() as libc::nfds_t,
            timeout.as_millis() as i32,
        )
    };
}

fn receive(state: &mut State, buf: &mut [u8], now: Instant) {
    let State {
        sockets,
        sessions,
        counters,
        ..
    } = state;
    for socket in sockets.iter() {
        let Ok(local) = socket.local_addr() else {
            continue;
        };
        while let Ok((n, source)) = socket.recv_from(buf) {
            let Ok(receive) = Receive::new(Protocol::Udp, source, local, &buf[..n]) else {
                counters.stray.fetch_add(1, Relaxed);
                continue;
            };
            let input = Input::Receive(now, receive);
            // str0m claims STUN by its credentials, and DTLS/RTP/RTCP by the nominated pair;
            // DTLS that races ICE's nomination is claimed by the address STUN came from.
            let session = match sessions.values_mut().position(|s| s.rtc.accepts(&input)) {
                Some(i) => sessions.values_mut().nth(i),
                None => sessions.values_mut().find(|s| s.peers.contains(&source)),
            };
            let Some(session) = session else {
                counters.stray.fetch_add(1, Relaxed);
                continue;
            };
            if !session.peers.contains(&source) && session.peers.len() < 16 {
                session.peers.push(source);
            }
            session.last_heard = now;
            if session.rtc.handle_input(input).is_err() {
                session.closed = true;
            }
        }
    }
}

/// Encodes what each sink mixed and writes it to its sessions.
fn deliver(state: &mut State, now: Instant) {
    let State {
        feeds,
        sessions,
        counters,
        ..
    } = state;
    for (sink_id, feed) in feeds.iter_mut() {
        feed.pump();
        let profiles: Vec<_> = sessions
            .values()
            .filter(|s| &s.stats.sink_id == sink_id)
            .map(|s| s.profile)
            .collect();
        let mut done: Vec<_> = Vec::new();
        for profile in profiles {
            if done.contains(&profile) {
                continue;
            }
            done.push(profile);
            for packet in feed.take(profile) {
                for s in sessions
                    .values_mut()
                    .filter(|s| &s.stats.sink_id == sink_id && s.profile == profile)
                {
                    s.send(&packet.data, packet.rtp_time, now);
                }
                let us = Instant::now().duration_since(packet.read_at).as_micros() as u64;
                counters.latency_us.store(us, Relaxed);
                counters.max_latency_us.fetch_max(us, Relaxed);
            }
        }
    }
}

/// Lets str0m run its timers and sends what it transmits.
fn drive(state: &mut State, now: Instant) {
    let State {
        sockets,
        sessions,
        counters,
        ..
    } = state;
    let by_addr: HashMap<_, &UdpSocket> = sockets
        .iter()
        .filter_map(|s| Some((s.local_addr().ok()?, s)))
        .collect();
    for session in sessions.values_mut() {
        if session.rtc.handle_input(Input::Timeout(now)).is_err() {
            session.closed = true;
            continue;
        }
        loop {
            match session.rtc.poll_output() {
                Ok(Output::Timeout(_)) => break,
                Ok(Output::Transmit(t)) => {
                    let sent = by_addr
                        .get(&t.source)
                        .map(|s| s.send_to(&t.contents, t.destination));
                    if !matches!(sent, Some(Ok(_))) {
                        counters.send_errors.fetch_add(1, Relaxed);
                    }
                }
                Ok(Output::Event(e)) => session.on_event(e),
                Err(_) => {
                    session.closed = true;
                    break;
                }
            }
        }
        session.stats.duration_s = now.duration_since(session.started).as_secs_f64();
    }
}

/// Frees sessions that closed or went quiet, and the feeds (taps, encoders) nobody hears.
fn expire(state: &mut State, now: Instant) {
    let gone: Vec<String> = state
        .sessions
        .iter()
        .filter(|(_, s)| s.expired(now))
        .map(|(id, _)| id.clone())
        .collect();
    for id in gone {
        if let Some(mut s) = state.sessions.remove(&id) {
            s.rtc.disconnect();
            state.expired += 1;
        }
    }
    let State {
        feeds, sessions, ..
    } = state;
    feeds.retain(|sink_id, _| sessions.values().any(|s| &s.stats.sink_id == sink_id));
    for (sink_id, feed) in feeds.iter_mut() {
        feed.keep_only(|p| {
            sessions
                .values()
                .any(|s| &s.stats.sink_id == sink_id && s.profile == p)
        });
    }
}
