//! A JACK server of a test's own: `jackd -d dummy` (no sound card: the dummy driver's clock is
//! this machine's, in periods of `-p` frames) under a server name no other test uses, so a
//! receiver given `JACK_DEFAULT_SERVER` finds it and nothing else.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Jackd {
    /// `None` when attached to a server another `Jackd` started.
    child: Option<Child>,
    /// `JACK_DEFAULT_SERVER` for its clients.
    pub name: String,
}

impl Jackd {
    /// Starts `jackd -d dummy -r RATE -p 256` named `name` (made unique) and waits until it
    /// lists its system ports.
    pub fn start(name: &str, rate: u32) -> Jackd {
        let name = format!("trib-{name}-{}", std::process::id());
        let child = Command::new("jackd")
            .args(["-d", "dummy", "-r", &rate.to_string(), "-p", "256"])
            .env("JACK_DEFAULT_SERVER", &name)
            .env("JACK_NO_AUDIO_RESERVATION", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("jackd runs");
        let jackd = Jackd {
            child: Some(child),
            name,
        };
        let until = Instant::now() + Duration::from_secs(10);
        while !jackd.ports().iter().any(|p| p == "system:playback_2") {
            assert!(Instant::now() < until, "jackd did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        jackd
    }

    /// The server named `name` (started elsewhere), to list its ports from another thread.
    pub fn attach(name: &str) -> Jackd {
        Jackd {
            child: None,
            name: name.to_owned(),
        }
    }

    /// `jack_lsp`: the server's ports.
    pub fn ports(&self) -> Vec<String> {
        self.lsp(&[])
    }

    /// `jack_lsp -c`: each port, followed by the ports it is connected to (indented).
    pub fn connections(&self) -> Vec<String> {
        self.lsp(&["-c"])
    }

    fn lsp(&self, args: &[&str]) -> Vec<String> {
        let out = Command::new("jack_lsp")
            .args(args)
            .env("JACK_DEFAULT_SERVER", &self.name)
            .env("JACK_NO_START_SERVER", "1")
            .stderr(Stdio::null())
            .output()
            .expect("jack_lsp runs");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Jackd {
    fn drop(&mut self) {
        let Some(child) = &mut self.child else { return };
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let until = Instant::now() + Duration::from_secs(3);
        while child.try_wait().ok().flatten().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}
