//! What every transport implements, and what they share.

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::counters::SinkCounters;
use crate::sink::mix::Mixed;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// What sending needs besides the transport itself.
pub struct SendContext<'a> {
    /// The engine's one UDP socket for everything it sends.
    pub socket: &'a UdpSocket,
    pub counters: &'a SinkCounters,
    pub now: Instant,
}

/// One way of delivering a sink's audio. `render` and `send` run on the engine thread: they
/// never allocate or block.
pub trait Transport: Sized {
    /// Builds the transport for `spec` (paths not included). `seed` varies random identifiers
    /// (RTP's SSRC, sequence and timestamp) between sinks.
    fn new(spec: &SinkSpec, seed: u64) -> Result<Self, ConfigError>;
    /// The most frames a sink with `spec` renders per packet (sizes its paths' buffers).
    fn max_frames(spec: &SinkSpec) -> usize;
    /// Nominal time between packets.
    fn period(&self) -> Duration;
    /// The next render the packet due now needs: (frames, seconds after the packet's deadline
    /// that its first frame leaves); `None` once the packet is complete.
    fn next_render(&self) -> Option<(usize, f64)>;
    /// Encodes and keeps what was rendered.
    fn take(&mut self, mixed: Mixed<'_>);
    /// Sends the packet due now.
    fn send(&mut self, context: &SendContext<'_>);
    /// Carries on the stream of the transport this one replaces (same destination and kind),
    /// so a receiver sees one stream.
    fn continue_from(&mut self, previous: &Self);
}

/// The destination of `spec`, if it has one (without one, a sink renders and sends nothing).
pub(crate) fn destination(spec: &SinkSpec) -> Option<SocketAddr> {
    spec.ip.map(|ip| SocketAddr::new(ip, spec.port))
}

/// Sends one datagram, counting it (or the error).
pub(crate) fn send_datagram(context: &SendContext<'_>, bytes: &[u8], dest: SocketAddr) {
    match context.socket.send_to(bytes, dest) {
        Ok(n) => {
            context.counters.packets.fetch_add(1, Relaxed);
            context.counters.bytes.fetch_add(n as u64, Relaxed);
        }
        Err(_) => {
            context.counters.send_errors.fetch_add(1, Relaxed);
        }
    }
}
