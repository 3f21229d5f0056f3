//! The MP3 stream tests' fixture: an engine playing one silent sink, and streams of it whose
//! batches are recorded with their arrival time, then split into frames. Included by `#[path]`
//! (only the binaries that use it build it); it needs `mod common;` beside it.

use crate::common::{engine, play, receiver, scream_sink, serial};
use std::net::UdpSocket;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tributary_codec::FrameHeader;
use tributary_engine::{ConfigError, Engine, Mp3Stream};

/// What a stream delivered: each batch and when it came.
pub type Frames = Arc<Mutex<Vec<(Instant, Vec<u8>)>>>;

/// An engine playing sink "a" (Scream to a local socket, no paths: silence), while this test
/// runs alone (see [`serial`]).
pub struct SilentSink {
    pub engine: Engine,
    _receiver: UdpSocket,
    _serial: MutexGuard<'static, ()>,
}

impl SilentSink {
    pub fn start() -> Self {
        let serial = serial();
        let mut engine = engine();
        let (receiver, port) = receiver();
        play(&mut engine, vec![scream_sink("a", port, vec![])]);
        Self {
            engine,
            _receiver: receiver,
            _serial: serial,
        }
    }

    /// Opens an MP3 stream of sink `id` at `kbps`, recording what it delivers.
    pub fn listen(&self, id: &str, kbps: u32) -> Result<(Mp3Stream, Frames), ConfigError> {
        let frames: Frames = Arc::default();
        let recorded = frames.clone();
        let deliver = Box::new(move |batch: &[u8]| {
            recorded
                .lock()
                .unwrap()
                .push((Instant::now(), batch.to_vec()));
        });
        let stream = self.engine.listen_mp3(id, kbps, deliver)?;
        Ok((stream, frames))
    }
}

/// Splits batches into frames, checking each is whole.
pub fn headers(frames: &Frames) -> Vec<FrameHeader> {
    let mut out = Vec::new();
    for (_, batch) in frames.lock().unwrap().iter() {
        let mut at = 0;
        while at < batch.len() {
            let h = FrameHeader::parse(&batch[at..]).expect("a batch is whole frames");
            at += h.length;
            out.push(h);
        }
        assert_eq!(at, batch.len());
    }
    out
}
