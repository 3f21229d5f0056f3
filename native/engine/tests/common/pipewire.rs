//! A PipeWire daemon of a test's own: run as root with no session manager, its socket in a
//! temporary folder (`XDG_RUNTIME_DIR` and `PIPEWIRE_RUNTIME_DIR`, so the user's PipeWire is
//! never touched), a minimal config of its own (`pipewire -c /abs/path.conf`) and a dummy
//! driver (`support.node.driver`) that runs the graph without hardware.
//!
//! With no WirePlumber nobody configures ports or links nodes, so the fixture does it:
//! [`PipeWire::dsp_ports`] sets a node's `PortConfig` to planar F32 stereo (what WirePlumber
//! does), [`PipeWire::link`] runs `pw-link` on the FL and FR ports. Every process it starts
//! (the daemon and the clients from [`PipeWire::spawn`]) is killed when it is dropped, also when
//! a test fails. Used with `#[path]` by the PipeWire tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running PipeWire with `modules` (config text) loaded; killed with its clients when dropped.
pub struct PipeWire {
    daemon: Child,
    clients: Vec<Child>,
    /// Its folder (config, socket, recordings).
    pub dir: PathBuf,
}

impl PipeWire {
    /// Starts one named `name` (its folder's name) with `modules` appended to the base
    /// modules' list, and waits for its socket.
    pub fn start(name: &str, modules: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("trib-pw-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let conf = dir.join("pipewire.conf");
        std::fs::write(&conf, config(modules)).unwrap();
        // At real-time priority, as rtkit gives a desktop's PipeWire: on a loaded machine the
        // graph otherwise misses its cycles and sends gaps of its own (the test then measures
        // PipeWire's starvation, not Tributary).
        let daemon = Command::new("chrt")
            .args(["-r", "10", "pipewire"])
            .arg("-c")
            .arg(&conf)
            .envs(env(&dir))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("pipewire.log")).unwrap())
            .spawn()
            .expect("pipewire runs");
        let pw = PipeWire {
            daemon,
            clients: Vec::new(),
            dir,
        };
        let socket = pw.dir.join("pipewire-0");
        let until = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(
                Instant::now() < until,
                "PipeWire did not start: {}",
                pw.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        pw
    }

    /// A command for a PipeWire client program that talks to this daemon.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.envs(env(&self.dir)).stdin(Stdio::null());
        c
    }

    /// Runs a client to completion (at most 5 s); its stdout, or a panic with its error.
    pub fn run(&self, program: &str, args: &[&str]) -> String {
        let out = self
            .command("timeout")
            .arg("5")
            .arg(program)
            .args(args)
            .output()
            .expect("client runs");
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts a client that keeps running (`pw-play`, `pw-record`), at real-time priority like
    /// the daemon; killed on drop.
    pub fn spawn(&mut self, program: &str, args: &[&str]) {
        let child = self
            .command("chrt")
            .args(["-r", "10", program])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("client runs");
        self.clients.push(child);
    }

    /// Stops the clients with SIGINT (`pw-record` then finishes its file), killing any that
    /// has not exited within 2 s.
    pub fn stop_clients(&mut self) {
        for child in &mut self.clients {
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            let until = Instant::now() + Duration::from_secs(2);
            while child.try_wait().ok().flatten().is_none() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        self.clients.clear();
    }

    /// The id of the node named `name`, waiting up to 20 s for it to appear (a module loads it;
    /// on a loaded machine that took over 5 s).
    pub fn node_id(&self, name: &str) -> u32 {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(id) = find_node(&self.run("pw-cli", &["ls", "Node"]), name) {
                return id;
            }
            assert!(Instant::now() < until, "no node {name}: {}", self.log());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Gives the node `name` planar F32 stereo ports (`output_FL`, `input_FR`...) at `rate`:
    /// the `PortConfig` a session manager would set. `output` is the ports' direction.
    pub fn dsp_ports(&self, name: &str, output: bool, rate: u32) {
        let id = self.node_id(name).to_string();
        let direction = if output { "Output" } else { "Input" };
        let config = format!(
            "{{ \"direction\": \"{direction}\", \"mode\": \"dsp\", \"monitor\": false, \
             \"control\": false, \"format\": {{ \"mediaType\": \"audio\", \"mediaSubtype\": \
             \"raw\", \"format\": \"F32P\", \"rate\": {rate}, \"channels\": 2, \
             \"position\": [\"FL\", \"FR\"] }} }}"
        );
        self.run("pw-cli", &["set-param", &id, "PortConfig", &config]);
    }

    /// Links `from`'s FL and FR output ports to `to`'s input ports, waiting up to 5 s for them
    /// (a stream's ports are `output_FL`, `input_FL`; a node of class `Audio/Sink` has
    /// `playback_FL`).
    pub fn link(&self, from: &str, to: &str) {
        for ch in ["FL", "FR"] {
            let out = self.port("-o", from, ch);
            let inp = self.port("-i", to, ch);
            self.run("pw-link", &[&out, &inp]);
        }
    }

    /// The port `node:*_ch` that `pw-link list` (`-o` outputs, `-i` inputs) shows, within 5 s.
    fn port(&self, list: &str, node: &str, ch: &str) -> String {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let ports = self.run("pw-link", &[list]);
            let found = ports.lines().find(|l| {
                l.strip_prefix(node)
                    .and_then(|p| p.strip_prefix(':'))
                    .is_some_and(|p| p.ends_with(&format!("_{ch}")))
            });
            if let Some(port) = found {
                return port.to_owned();
            }
            assert!(
                Instant::now() < until,
                "no {ch} port {list} on {node}: {ports}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The daemon's log so far (its stderr).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("pipewire.log")).unwrap_or_default()
    }
}

impl Drop for PipeWire {
    fn drop(&mut self) {
        for child in self.clients.iter_mut().chain([&mut self.daemon]) {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The id of the node named `name` in `pw-cli ls Node` output.
fn find_node(listing: &str, name: &str) -> Option<u32> {
    let mut id = None;
    for line in listing.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.split(',').next().and_then(|n| n.parse().ok());
        } else if line == format!("node.name = \"{name}\"") {
            return id;
        }
    }
    None
}

/// The environment that points PipeWire and its clients at `dir`, nowhere else.
fn env(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    vec![
        ("XDG_RUNTIME_DIR", dir.to_path_buf()),
        ("PIPEWIRE_RUNTIME_DIR", dir.to_path_buf()),
        ("HOME", dir.to_path_buf()),
        ("XDG_CONFIG_HOME", dir.join("config")),
    ]
}

/// The daemon's whole config: real-time scheduling for its data thread (a loaded machine
/// starves it otherwise: PipeWire sent 15 % too few packets at a load of 5 on 2 cores), the protocol, the factories clients and `pw-link` need, access
/// for local clients, then `modules`, and a dummy driver for the graph.
fn config(modules: &str) -> String {
    format!(
        "context.properties = {{\n  core.daemon = true\n  core.name = pipewire-0\n  \
         support.dbus = false\n}}\n\
         context.spa-libs = {{\n  audio.convert.* = audioconvert/libspa-audioconvert\n  \
         support.* = support/libspa-support\n}}\n\
         context.modules = [\n  {{ name = libpipewire-module-rt args = {{ nice.level = -11 \
         rt.prio = 88 }} flags = [ ifexists nofail ] }}\n  \
         {{ name = libpipewire-module-protocol-native }}\n  \
         {{ name = libpipewire-module-metadata }}\n  \
         {{ name = libpipewire-module-spa-node-factory }}\n  \
         {{ name = libpipewire-module-client-node }}\n  \
         {{ name = libpipewire-module-adapter }}\n  \
         {{ name = libpipewire-module-link-factory }}\n  \
         {{ name = libpipewire-module-access }}\n{modules}\n]\n\
         context.objects = [\n  {{ factory = spa-node-factory args = {{ \
         factory.name = support.node.driver node.name = Dummy-Driver priority.driver = 20000 }} }}\n]\n"
    )
}
