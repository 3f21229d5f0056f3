//! One real sink on the engine thread: a mixer ticking on the router's steady clock. Each tick
//! renders every path, mixes, encodes to the sink's format and sends one packet: Scream (5-byte
//! header + 1152 bytes), RTP (frame-aligned payload of at most 1152 bytes, RTCP SR every 5 s on
//! port + 1) or raw PCM over TCP. Ticks happen whether or not sources send (silence then); a
//! sink that has mixed nothing for a second sends zeros without running the limiter and encoder.

use crate::config::{ConfigError, SinkProtocol, SinkSpec};
use crate::path::PathRt;
use crate::rtcp::{self, SenderInfo};
use crate::rtp;
use crate::scream::{self, ScreamFormat};
use crate::source::SourceSlot;
use crate::stats::SinkCounters;
use crate::tap::Tap;
use std::io::Write;
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use tributary_dsp::{AudioBuffer, ChannelLayout, Encoder, Mixer};

/// Payload bytes per Scream packet (and per TCP write).
const CHUNK: usize = scream::PAYLOAD_LEN;
/// Seconds of nothing mixed after which the limiter's envelope has certainly decayed (80 ms
/// release) and silence can be sent as zeros directly.
const QUIET_S: f64 = 1.0;
const SR_INTERVAL: Duration = Duration::from_secs(5);

struct RtpState {
    ssrc: u32,
    sequence: u16,
    timestamp: u32,
    packets: u32,
    octets: u32,
    next_sr: Instant,
}

/// A sink's mixer and sender. Built off the real-time thread; `tick` never allocates.
pub struct SinkRt {
    pub spec: SinkSpec,
    pub paths: Vec<PathRt>,
    pub counters: Arc<SinkCounters>,
    frame_bytes: usize,
    frames_per_tick: usize,
    period: Duration,
    start: Instant,
    ticks: u64,
    /// Frames rendered in a row with no path mixed, and how many make the sink idle.
    quiet: usize,
    quiet_limit: usize,
    mixer: Mixer,
    mix_out: AudioBuffer,
    encoder: Encoder,
    encoded: Vec<u8>,
    fifo: Vec<u8>,
    fifo_len: usize,
    packet: Vec<u8>,
    dest: Option<SocketAddr>,
    scream_header: [u8; scream::HEADER_LEN],
    rtp: RtpState,
    tcp: Option<TcpStream>,
    tcp_rx: Option<mpsc::Receiver<TcpStream>>,
    tcp_want: Option<mpsc::SyncSender<()>>,
}

impl SinkRt {
    /// Builds the sink (paths are added by the caller). `start` is the first tick's deadline.
    pub fn new(spec: &SinkSpec, start: Instant, seed: u64) -> Result<Self, ConfigError> {
        let format = spec.sample_format()?;
        let channels = spec.layout.channels();
        let frame_bytes = format.bytes_per_sample() * channels;
        let rate = f64::from(spec.sample_rate);
        let (frames_per_tick, period) = match spec.protocol {
            SinkProtocol::Rtp => {
                let n = (rtp::MAX_SEND_PAYLOAD / frame_bytes).max(1);
                (n, n as f64 / rate)
            }
            // A byte stream: one 1152-byte chunk per tick, frames carried across chunks.
            _ => (
                CHUNK.div_ceil(frame_bytes),
                CHUNK as f64 / (frame_bytes as f64 * rate),
            ),
        };
        let mask = spec.layout.mask() as u16;
        let scream_header = ScreamFormat {
            sample_rate: spec.sample_rate,
            bit_depth: spec.bit_depth,
            channels: spec.channels,
            channel_mask: mask,
        }
        .header()
        .unwrap_or([
            0x01,
            spec.bit_depth,
            spec.channels,
            mask as u8,
            (mask >> 8) as u8,
        ]);
        let dest = spec.ip.map(|ip| SocketAddr::new(ip, spec.port));
        let (tcp_rx, tcp_want) = match (spec.protocol, dest) {
            (SinkProtocol::Tcp, Some(addr)) => {
                let (tx, rx) = spawn_tcp_connector(addr);
                (Some(rx), Some(tx))
            }
            _ => (None, None),
        };
        let now_wall = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let mix_seed = seed ^ now_wall.as_nanos() as u64;
        Ok(Self {
            spec: spec.clone(),
            paths: Vec::new(),
            counters: Arc::new(SinkCounters::default()),
            frame_bytes,
            frames_per_tick,
            period: Duration::from_secs_f64(period),
            start,
            ticks: 0,
            quiet: 0,
            quiet_limit: (QUIET_S * rate) as usize,
            mixer: Mixer::new(channels, spec.sample_rate, frames_per_tick)
                .map_err(|e| ConfigError(format!("sink {}: {e}", spec.name)))?,
            mix_out: AudioBuffer::new(channels, frames_per_tick),
            // No dither: silence must stay digital silence on the wire.
            encoder: Encoder::new(format, false),
            encoded: vec![0; frames_per_tick * frame_bytes],
            fifo: vec![0; CHUNK * 2 + frames_per_tick * frame_bytes],
            fifo_len: 0,
            packet: vec![0; 64 + CHUNK.max(rtp::MAX_SEND_PAYLOAD)],
            dest,
            scream_header,
            rtp: RtpState {
                ssrc: (mix_seed >> 32) as u32 ^ mix_seed as u32,
                sequence: (mix_seed >> 16) as u16,
                timestamp: (mix_seed >> 8) as u32,
                packets: 0,
                octets: 0,
                next_sr: start,
            },
            tcp: None,
            tcp_rx,
            tcp_want,
        })
    }

    /// Frames a sink with this spec renders per tick at most (sizes its paths' buffers).
    pub fn max_frames_for(spec: &SinkSpec) -> usize {
        let bytes = match spec.sample_format() {
            Ok(f) => f.bytes_per_sample(),
            Err(_) => 2,
        };
        let frame_bytes = bytes * spec.layout.channels().max(1);
        match spec.protocol {
            SinkProtocol::Rtp => (rtp::MAX_SEND_PAYLOAD / frame_bytes).max(1),
            _ => CHUNK.div_ceil(frame_bytes),
        }
    }

    /// Frames the sink renders per tick (the most a path is asked for).
    pub fn frames_per_tick(&self) -> usize {
        self.frames_per_tick
    }

    /// Nominal time between packets.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// When the next packet is due.
    pub fn deadline(&self) -> Instant {
        self.start + self.period.mul_f64(self.ticks as f64)
    }

    /// Keeps the same tick phase when a sink is rebuilt, so replacing it leaves no gap.
    pub fn continue_from(&mut self, previous: &SinkRt) {
        self.start = previous.start;
        self.ticks = previous.ticks;
        if previous.period != self.period {
            self.start = previous.deadline();
            self.ticks = 0;
        }
        if previous.spec.protocol == self.spec.protocol && previous.dest == self.dest {
            self.rtp.ssrc = previous.rtp.ssrc;
            self.rtp.sequence = previous.rtp.sequence;
            self.rtp.timestamp = previous.rtp.timestamp;
        }
    }

    /// Produces and sends the packet due now. `sources` and `taps` are the engine's tables;
    /// `now_s` is `now` on the engine's clock (seconds).
    pub fn tick(
        &mut self,
        sources: &mut [SourceSlot],
        taps: &mut [Tap],
        now: Instant,
        now_s: f64,
        socket: &UdpSocket,
    ) {
        let deadline = self.deadline();
        let late = now.saturating_duration_since(deadline);
        let deadline_s = now_s - late.as_secs_f64();
        self.counters
            .max_late_us
            .fetch_max(late.as_micros() as u64, Relaxed);
        self.ticks += 1;
        // After a long stall (debugger, suspended VM) skip ahead rather than burst; the paths
        // then pick up where their taps' other paths play now.
        if late > self.period * 50 {
            let behind = (late.as_secs_f64() / self.period.as_secs_f64()) as u64;
            self.ticks += behind;
            self.paths.iter_mut().for_each(PathRt::rejoin);
        }
        match self.spec.protocol {
            SinkProtocol::Rtp => {
                let n = self.render(sources, taps, now_s, deadline_s, self.frames_per_tick);
                self.send_rtp(n, now, socket);
            }
            _ => {
                let byte_s = 1.0 / (self.frame_bytes as f64 * f64::from(self.spec.sample_rate));
                while self.fifo_len < CHUNK {
                    let want = (CHUNK - self.fifo_len)
                        .div_ceil(self.frame_bytes)
                        .min(self.frames_per_tick);
                    // The bytes queued go out first: these frames follow them.
                    let at_s = deadline_s + self.fifo_len as f64 * byte_s;
                    let n = self.render(sources, taps, now_s, at_s, want);
                    self.fifo[self.fifo_len..self.fifo_len + n].copy_from_slice(&self.encoded[..n]);
                    self.fifo_len += n;
                }
                self.send_chunk(socket);
            }
        }
    }

    /// Mixes `frames` frames (the first leaving at `at_s`) into `self.encoded`; returns the
    /// byte count.
    fn render(
        &mut self,
        sources: &mut [SourceSlot],
        taps: &mut [Tap],
        now_s: f64,
        at_s: f64,
        frames: usize,
    ) -> usize {
        let _ = self.mixer.begin(frames);
        let mut underruns = 0;
        let mut mixed = 0;
        for path in &mut self.paths {
            if let Some((out, gain)) = path.render(taps, sources, now_s, at_s, frames) {
                let _ = self.mixer.add(out, gain);
                mixed += 1;
            }
            underruns += path.take_underruns(taps);
        }
        if underruns > 0 {
            self.counters.underruns.fetch_add(underruns, Relaxed);
        }
        self.quiet = if mixed == 0 {
            self.quiet.saturating_add(frames)
        } else {
            0
        };
        let bytes = frames * self.frame_bytes;
        if self.quiet > self.quiet_limit {
            // Digital silence encodes as zero bytes in every format.
            self.encoded[..bytes].fill(0);
            return bytes;
        }
        let _ = self.mixer.finish_into(&mut self.mix_out);
        self.encoder
            .encode_into(&self.mix_out, &mut self.encoded)
            .unwrap_or(0)
    }

    fn send_rtp(&mut self, bytes: usize, now: Instant, socket: &UdpSocket) {
        let frames = (bytes / self.frame_bytes) as u32;
        let Some(dest) = self.dest else { return };
        let pt = self.spec.rtp_payload_type();
        let header: &mut [u8; rtp::HEADER_LEN] = (&mut self.packet[..rtp::HEADER_LEN])
            .try_into()
            .expect("header slice");
        rtp::write_header(
            header,
            false,
            pt,
            self.rtp.sequence,
            self.rtp.timestamp,
            self.rtp.ssrc,
        );
        self.packet[rtp::HEADER_LEN..rtp::HEADER_LEN + bytes]
            .copy_from_slice(&self.encoded[..bytes]);
        self.rtp.sequence = self.rtp.sequence.wrapping_add(1);
        self.rtp.timestamp = self.rtp.timestamp.wrapping_add(frames);
        self.send(socket, rtp::HEADER_LEN + bytes, dest);
        self.rtp.packets = self.rtp.packets.wrapping_add(1);
        self.rtp.octets = self.rtp.octets.wrapping_add(bytes as u32);
        if now >= self.rtp.next_sr {
            self.rtp.next_sr = now + SR_INTERVAL;
            let since_epoch = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default();
            let info = SenderInfo {
                ntp_timestamp: rtcp::ntp_timestamp(since_epoch),
                rtp_timestamp: self.rtp.timestamp,
                packet_count: self.rtp.packets,
                octet_count: self.rtp.octets,
            };
            let mut buf = [0u8; 64];
            if let Some(n) = rtcp::build_sender_report(self.rtp.ssrc, &info, b"tributary", &mut buf)
            {
                let rtcp_dest = SocketAddr::new(dest.ip(), dest.port().wrapping_add(1));
                let _ = socket.send_to(&buf[..n], rtcp_dest);
            }
        }
    }

    fn send_chunk(&mut self, socket: &UdpSocket) {
        match (self.spec.protocol, self.dest) {
            (SinkProtocol::Scream, Some(dest)) => {
                self.packet[..scream::HEADER_LEN].copy_from_slice(&self.scream_header);
                self.packet[scream::HEADER_LEN..scream::HEADER_LEN + CHUNK]
                    .copy_from_slice(&self.fifo[..CHUNK]);
                self.send(socket, scream::HEADER_LEN + CHUNK, dest);
            }
            (SinkProtocol::Tcp, Some(_)) => self.send_tcp(),
            _ => {}
        }
        self.fifo.copy_within(CHUNK..self.fifo_len, 0);
        self.fifo_len -= CHUNK;
        self.counters
            .queue_bytes
            .store(self.fifo_len as u64, Relaxed);
    }

    fn send(&mut self, socket: &UdpSocket, len: usize, dest: SocketAddr) {
        match socket.send_to(&self.packet[..len], dest) {
            Ok(n) => {
                self.counters.packets.fetch_add(1, Relaxed);
                self.counters.bytes.fetch_add(n as u64, Relaxed);
            }
            Err(_) => {
                self.counters.send_errors.fetch_add(1, Relaxed);
            }
        }
    }

    fn send_tcp(&mut self) {
        if self.tcp.is_none() {
            if let Some(stream) = self.tcp_rx.as_ref().and_then(|rx| rx.try_recv().ok()) {
                self.tcp = Some(stream);
            }
        }
        let Some(stream) = self.tcp.as_mut() else {
            return;
        };
        match stream.write(&self.fifo[..CHUNK]) {
            Ok(n) if n == CHUNK => {
                self.counters.packets.fetch_add(1, Relaxed);
                self.counters.bytes.fetch_add(n as u64, Relaxed);
            }
            Ok(n) => {
                // Partial write: the receiver is slow; keep the stream aligned by dropping it
                // and reconnecting rather than splitting frames.
                self.counters.bytes.fetch_add(n as u64, Relaxed);
                self.counters.send_errors.fetch_add(1, Relaxed);
                self.drop_tcp();
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                // The socket buffer is full: this chunk is dropped (the stream stays aligned).
                self.counters.send_errors.fetch_add(1, Relaxed);
            }
            Err(_) => {
                self.counters.send_errors.fetch_add(1, Relaxed);
                self.drop_tcp();
            }
        }
    }

    fn drop_tcp(&mut self) {
        self.tcp = None;
        if let Some(want) = &self.tcp_want {
            let _ = want.try_send(());
        }
    }
}

/// The layout of a source: its announced mask when it matches the channel count.
pub fn layout_for(channels: usize, mask: u32) -> ChannelLayout {
    ChannelLayout::from_mask(mask)
        .ok()
        .filter(|l| l.channels() == channels)
        .or_else(|| ChannelLayout::default_for_channels(channels).ok())
        .unwrap_or(ChannelLayout::STEREO)
}

/// A thread that connects to a TCP sink (retrying every 2 s) whenever asked, handing the
/// connected, non-blocking stream to the sink. It ends when the sink is dropped.
fn spawn_tcp_connector(addr: SocketAddr) -> (mpsc::SyncSender<()>, mpsc::Receiver<TcpStream>) {
    let (want_tx, want_rx) = mpsc::sync_channel::<()>(1);
    let (stream_tx, stream_rx) = mpsc::sync_channel::<TcpStream>(1);
    let _ = want_tx.try_send(());
    let spawned = std::thread::Builder::new()
        .name("trib-tcp".into())
        .spawn(move || {
            while want_rx.recv().is_ok() {
                loop {
                    match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
                        Ok(s) => {
                            let _ = s.set_nodelay(true);
                            let _ = s.set_nonblocking(true);
                            if stream_tx.send(s).is_err() {
                                return;
                            }
                            break;
                        }
                        Err(_) => {
                            // Sleep in short steps so a dropped sink ends the thread promptly.
                            for _ in 0..20 {
                                std::thread::sleep(Duration::from_millis(100));
                                if let Err(mpsc::TryRecvError::Disconnected) = want_rx.try_recv() {
                                    return;
                                }
                            }
                        }
                    }
                }
            }
        });
    if let Err(e) = spawned {
        crate::log::warn(&format!("cannot start the TCP connector for {addr}: {e}"));
    }
    (want_tx, stream_rx)
}
