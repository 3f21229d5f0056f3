//! `engine.listenMp3(sinkId, kbps, onFrames)`: an MP3 stream of a sink, encoded on the engine's
//! side (see `tributary_engine::Mp3Stream`); JavaScript receives whole MP3 frames in Buffers
//! and serves them over HTTP.

use crate::engine::Engine;
use napi::bindgen_prelude::Buffer;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Error, Status};
use napi_derive::napi;
use std::sync::atomic::Ordering::Relaxed;
use tributary_engine::Mp3Stream as CoreStream;

/// Called with each batch of whole MP3 frames (about every 10-30 ms).
type OnFrames = ThreadsafeFunction<Buffer, (), Buffer, Status, false>;

/// An open MP3 stream: `close()` stops its encoder thread and frees the sink's tap.
#[napi]
pub struct Mp3Stream {
    inner: Option<CoreStream>,
}

/// What an MP3 stream's encoder did so far.
#[napi(object)]
pub struct Mp3StreamStats {
    pub frames: f64,
    pub bytes: f64,
    /// CPU time of the encoder thread, seconds.
    #[napi(js_name = "cpu_s")]
    pub cpu_s: f64,
    /// Seconds of silence encoded while the sink did not render (engine restarting).
    #[napi(js_name = "filled_s")]
    pub filled_s: f64,
    #[napi(js_name = "encode_errors")]
    pub encode_errors: f64,
    /// Renders the tap dropped because the encoder fell behind.
    pub overruns: f64,
    /// The MP3 sample rate.
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
}

#[napi]
impl Engine {
    /// Starts the MP3 stream of the playing sink `sinkId` (its config_id) at `kbps` (32 to
    /// 320, MPEG-1 Layer III rates but 56). Throws for an unknown sink, another bit rate, or a
    /// sink that already has a stream (one per sink: share its frames).
    #[napi(
        catch_unwind,
        ts_args_type = "sinkId: string, kbps: number, onFrames: (frames: Buffer) => void"
    )]
    pub fn listen_mp3(
        &mut self,
        sink_id: String,
        kbps: u32,
        on_frames: OnFrames,
    ) -> napi::Result<Mp3Stream> {
        let deliver = Box::new(move |frames: &[u8]| {
            let _ = on_frames.call(
                Buffer::from(frames.to_vec()),
                ThreadsafeFunctionCallMode::NonBlocking,
            );
        });
        let stream = self
            .core()?
            .listen_mp3(&sink_id, kbps, deliver)
            .map_err(|e| Error::new(Status::InvalidArg, e.0))?;
        Ok(Mp3Stream {
            inner: Some(stream),
        })
    }
}

#[napi]
impl Mp3Stream {
    #[napi(catch_unwind)]
    pub fn stats(&self) -> Mp3StreamStats {
        let Some(s) = &self.inner else {
            return Mp3StreamStats {
                frames: 0.0,
                bytes: 0.0,
                cpu_s: 0.0,
                filled_s: 0.0,
                encode_errors: 0.0,
                overruns: 0.0,
                sample_rate: 0,
            };
        };
        let st = &s.stats;
        let rate = st.sample_rate.load(Relaxed).max(1) as f64;
        Mp3StreamStats {
            frames: st.frames.load(Relaxed) as f64,
            bytes: st.bytes.load(Relaxed) as f64,
            cpu_s: st.cpu_ns.load(Relaxed) as f64 / 1e9,
            filled_s: st.filled_frames.load(Relaxed) as f64 / rate,
            encode_errors: st.encode_errors.load(Relaxed) as f64,
            overruns: s.overruns() as f64,
            sample_rate: rate as u32,
        }
    }

    /// Stops the encoder (frames not yet delivered are dropped). Closing twice does nothing.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
    }

    #[napi(getter)]
    pub fn open(&self) -> bool {
        self.inner.is_some()
    }
}

/// Bytes the kernel still holds for the TCP socket `fd` (sent but unacknowledged, or unsent),
/// or null if `fd` is not a TCP socket. With the response's own queue, how far behind an HTTP
/// listener is.
#[napi]
pub fn tcp_send_queue(fd: i32) -> Option<u32> {
    tributary_engine::tcp_send_queue(fd).map(|n| n.min(u32::MAX as usize) as u32)
}
