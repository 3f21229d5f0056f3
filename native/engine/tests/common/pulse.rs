//! A PulseAudio daemon of a test's or bench's own (a private native socket in a temporary
//! folder, no other client sees it), as the team guide runs it: `-n -F FILE.pa`, never exits by
//! itself, `--system=false` as root. Shared by the fidelity bench and the PulseAudio tests
//! (`#[path]`).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running PulseAudio with `modules` loaded after its native socket; killed when dropped.
pub struct Pulse {
    child: Child,
    /// Its folder (socket, script, HOME): a place for recordings that go with it.
    pub dir: PathBuf,
}

impl Pulse {
    /// Starts one named `name` (its folder's name) and waits for its socket.
    pub fn start(name: &str, modules: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("trib-pa-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let socket = dir.join("native");
        let script = format!(
            "load-module module-native-protocol-unix auth-anonymous=1 socket={}\n{modules}\n",
            socket.display()
        );
        std::fs::write(dir.join("pa.pa"), script).unwrap();
        // At real-time priority, as a desktop's PulseAudio runs (rtkit): on a loaded machine it
        // otherwise misses its deadlines and the test hears PulseAudio's own gaps.
        let child = Command::new("chrt")
            .args(["-r", "10", "pulseaudio", "-n", "-F"])
            .arg(dir.join("pa.pa"))
            .args([
                "--exit-idle-time=-1",
                "--disallow-exit",
                "--system=false",
                "--daemonize=no",
                "--log-level=error",
            ])
            .env("HOME", &dir)
            .env("XDG_RUNTIME_DIR", &dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("pulseaudio runs");
        let until = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(Instant::now() < until, "PulseAudio did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        Pulse { child, dir }
    }

    /// The `--server` / `PULSE_SERVER` value that reaches it.
    pub fn server(&self) -> String {
        format!("unix:{}", self.dir.join("native").display())
    }
}

impl Drop for Pulse {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
