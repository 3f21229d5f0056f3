//! One sink's Opus for WebRTC listening: reads the sink's WebRTC tap, resamples to 48 kHz when
//! the sink runs at another rate, and encodes 20 ms packets once per profile in use, whatever
//! the number of sessions listening with that profile.

use crate::ring::PcmRing;
use crate::sink::SinkCounters;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Instant;
use tributary_codec::{CodecError, OpusEncoder, OpusProfile, OPUS_FRAME, OPUS_RATE};
use tributary_dsp::{AudioBuffer, Resampler};

/// Stereo frames read from the ring per pass at most.
const BLOCK: usize = 4096;

/// A 20 ms packet, ready for every session of its profile.
pub struct Packet {
    pub data: Arc<[u8]>,
    /// RTP time of its first sample, 48 kHz.
    pub rtp_time: u64,
    /// When the newest audio it holds left the sink's mix (read from the tap).
    pub read_at: Instant,
}

struct ProfileEncoder {
    profile: OpusProfile,
    encoder: OpusEncoder,
    /// 48 kHz frames encoded so far (the RTP clock).
    rtp_time: u64,
    out: Vec<Packet>,
}

/// A sink's feed: its tap open while the feed lives.
pub struct Feed {
    sink: Arc<SinkCounters>,
    ring: Arc<PcmRing>,
    rate: u32,
    resampler: Option<(Resampler, AudioBuffer, AudioBuffer)>,
    pcm: Vec<f32>,
    at48k: Vec<f32>,
    encoders: Vec<ProfileEncoder>,
    pub encode_errors: u64,
}

impl Feed {
    /// Opens `sink`'s WebRTC tap; `rate` is the sink's rate now.
    pub fn open(sink: Arc<SinkCounters>, rate: u32) -> Result<Self, CodecError> {
        let ring = sink
            .webrtc
            .open()
            .ok_or_else(|| CodecError("this sink's WebRTC tap is already open".into()))?;
        sink.webrtc.rate.store(rate, Relaxed);
        let mut feed = Self {
            sink,
            ring,
            rate: 0,
            resampler: None,
            pcm: vec![0.0; BLOCK * 2],
            at48k: Vec::with_capacity(BLOCK * 2 * 5),
            encoders: Vec::new(),
            encode_errors: 0,
        };
        feed.follow_rate(rate)?;
        Ok(feed)
    }

    /// Makes sure `profile` has an encoder (called when a session starts).
    pub fn want(&mut self, profile: OpusProfile) -> Result<(), CodecError> {
        if !self.encoders.iter().any(|e| e.profile == profile) {
            self.encoders.push(ProfileEncoder {
                profile,
                encoder: OpusEncoder::new(profile)?,
                rtp_time: 0,
                out: Vec::with_capacity(16),
            });
        }
        Ok(())
    }

    /// Drops the encoders of profiles no session uses any more.
    pub fn keep_only(&mut self, used: impl Fn(OpusProfile) -> bool) {
        self.encoders.retain(|e| used(e.profile));
    }

    /// Reads what the sink mixed since the last pass and encodes it; the packets wait in
    /// [`Feed::take`].
    pub fn pump(&mut self) {
        let rate = self.sink.webrtc.rate.load(Relaxed);
        if rate != 0 && rate != self.rate && self.follow_rate(rate).is_err() {
            self.encode_errors += 1;
        }
        loop {
            let n = self.ring.read_into(&mut self.pcm);
            if n == 0 {
                break;
            }
            let read_at = Instant::now();
            self.at48k.clear();
            match &mut self.resampler {
                None => self.at48k.extend_from_slice(&self.pcm[..n]),
                Some((resampler, input, output)) => {
                    let frames = n / 2;
                    input.set_frames(frames);
                    for (i, pair) in self.pcm[..n].chunks_exact(2).enumerate() {
                        input.channel_mut(0)[i] = pair[0];
                        input.channel_mut(1)[i] = pair[1];
                    }
                    if resampler.process_into(input, output).is_err() {
                        self.encode_errors += 1;
                        continue;
                    }
                    for i in 0..output.frames() {
                        self.at48k.push(output.channel(0)[i]);
                        self.at48k.push(output.channel(1)[i]);
                    }
                }
            }
            for e in &mut self.encoders {
                let ProfileEncoder {
                    encoder,
                    rtp_time,
                    out,
                    ..
                } = e;
                let result = encoder.encode(&self.at48k, |packet| {
                    out.push(Packet {
                        data: Arc::from(packet),
                        rtp_time: *rtp_time,
                        read_at,
                    });
                    *rtp_time += OPUS_FRAME as u64;
                });
                if result.is_err() {
                    self.encode_errors += 1;
                }
            }
        }
    }

    /// The packets of `profile` encoded by the last pass (taken: the next pass starts empty).
    pub fn take(&mut self, profile: OpusProfile) -> Vec<Packet> {
        self.encoders
            .iter_mut()
            .find(|e| e.profile == profile)
            .map(|e| std::mem::take(&mut e.out))
            .unwrap_or_default()
    }

    /// Renders the tap dropped since it opened (this thread fell behind).
    pub fn overruns(&self) -> u64 {
        self.sink.webrtc.overruns.load(Relaxed)
    }

    /// The sink's rate: a resampler to 48 kHz unless it is 48 kHz.
    fn follow_rate(&mut self, rate: u32) -> Result<(), CodecError> {
        self.rate = rate;
        self.resampler = None;
        if rate == OPUS_RATE {
            return Ok(());
        }
        let resampler = Resampler::new(rate, OPUS_RATE, 2, BLOCK)
            .map_err(|e| CodecError(format!("cannot resample {rate} Hz to 48 kHz: {e}")))?;
        let input = AudioBuffer::new(2, BLOCK);
        let output = AudioBuffer::new(2, resampler.max_output_frames(BLOCK));
        self.resampler = Some((resampler, input, output));
        Ok(())
    }
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.sink.webrtc.close();
    }
}
