//! Raw PCM over TCP: the engine connects to the sink (retrying every 2 s) and writes one
//! 1152-byte chunk of little-endian PCM per tick. A chunk the socket cannot take whole is
//! dropped (counted as a send error), so the stream stays frame-aligned.

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::output::stream::{ChunkSender, Chunked, CHUNK};
use crate::sink::output::transport::{destination, SendContext};
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::time::Duration;

/// Raw PCM over TCP as a sink's transport.
pub type TcpOutput = Chunked<TcpSender>;

/// Writes each chunk to the connection, if there is one.
pub struct TcpSender {
    tcp: Option<TcpStream>,
    /// Connected streams from the connector thread; `None` without a destination.
    connected: Option<mpsc::Receiver<TcpStream>>,
    /// Asks the connector for a new connection.
    reconnect: Option<mpsc::SyncSender<()>>,
}

impl ChunkSender for TcpSender {
    fn new(spec: &SinkSpec) -> Result<Self, ConfigError> {
        let (reconnect, connected) = match destination(spec) {
            Some(addr) => {
                let (tx, rx) = spawn_connector(addr);
                (Some(tx), Some(rx))
            }
            None => (None, None),
        };
        Ok(Self {
            tcp: None,
            connected,
            reconnect,
        })
    }

    fn send(&mut self, chunk: &[u8], context: &SendContext<'_>) {
        let counters = context.counters;
        if self.tcp.is_none() {
            if let Some(stream) = self.connected.as_ref().and_then(|rx| rx.try_recv().ok()) {
                self.tcp = Some(stream);
            }
        }
        let Some(tcp) = self.tcp.as_mut() else {
            return;
        };
        match tcp.write(chunk) {
            Ok(n) if n == CHUNK => {
                counters.packets.fetch_add(1, Relaxed);
                counters.bytes.fetch_add(n as u64, Relaxed);
            }
            Ok(n) => {
                // Partial write: the receiver is slow; keep the stream aligned by dropping it
                // and reconnecting rather than splitting frames.
                counters.bytes.fetch_add(n as u64, Relaxed);
                counters.send_errors.fetch_add(1, Relaxed);
                self.drop_connection();
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                // The socket buffer is full: this chunk is dropped (the stream stays aligned).
                counters.send_errors.fetch_add(1, Relaxed);
            }
            Err(_) => {
                counters.send_errors.fetch_add(1, Relaxed);
                self.drop_connection();
            }
        }
    }
}

impl TcpSender {
    fn drop_connection(&mut self) {
        self.tcp = None;
        if let Some(want) = &self.reconnect {
            let _ = want.try_send(());
        }
    }
}

/// A thread that connects to a TCP sink (retrying every 2 s) whenever asked, handing the
/// connected, non-blocking stream to the sink. It ends when the sink is dropped.
fn spawn_connector(addr: SocketAddr) -> (mpsc::SyncSender<()>, mpsc::Receiver<TcpStream>) {
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
        log::warn!("cannot start the TCP connector for {addr}: {e}");
    }
    (want_tx, stream_rx)
}
