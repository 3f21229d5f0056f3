//! One stream's decoder: probes the container from the first bytes, picks the audio track and
//! decodes packet after packet into interleaved f32 at the stream's own rate and channel count.
//! The input is read as it arrives (`Read`, never seeked): an HTTP body, or a radio stream that
//! never ends. A packet that fails to decode is skipped and counted; the stream goes on.

use crate::error::DecodeError;
use crate::mp4::{self, Layout};
use crate::opus::OPUS_RATE;
use crate::probe::{audio_track, is_stop, make_codec, probe, Codec};
use std::io::{self, Read};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use symphonia::core::audio::SampleBuffer;
use symphonia::core::errors::Error;
use symphonia::core::formats::{FormatReader, Packet};
use symphonia::core::io::{MediaSource, MediaSourceStream, ReadOnlySource};
use tributary_dsp::resampler::{MAX_RATE, MIN_RATE};
use tributary_dsp::MAX_CHANNELS;

/// Packets in a row that may fail before the stream counts as broken rather than damaged.
pub const MAX_FAILED_IN_A_ROW: u32 = 64;

/// What the caller knows about the stream.
#[derive(Clone, Debug, Default)]
pub struct DecodeOptions {
    /// A file extension (`mp3`) or MIME type (`audio/mpeg`) the caller expects: named in the
    /// "not audio" error. The format is recognised by content (symphonia 0.5's probe takes no
    /// hint).
    pub hint: Option<String>,
    /// Decode at most this many seconds, then end as if the stream had.
    pub max_seconds: Option<f64>,
    /// Largest MP4/M4A file with its index after its audio that is read whole before it plays
    /// (default [`MP4_MAX_BYTES`]).
    pub mp4_max_bytes: Option<usize>,
}

/// The default bound of [`DecodeOptions::mp4_max_bytes`]: about an hour of 128 kbit/s AAC.
pub const MP4_MAX_BYTES: usize = 64 << 20;

impl DecodeOptions {
    fn mp4_max_bytes(&self) -> usize {
        self.mp4_max_bytes.unwrap_or(MP4_MAX_BYTES)
    }
}

/// What the probe found.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamInfo {
    /// Short codec name: `mp3`, `aac`, `flac`, `vorbis`, `opus`, `pcm_s16le`, ...
    pub codec: String,
    pub sample_rate: u32,
    pub channels: usize,
    /// Bits per sample of a lossless codec (FLAC, PCM); `None` for lossy ones.
    pub bit_depth: Option<u32>,
    /// Frames the header declares, when it does (a file; not a radio stream).
    pub declared_frames: Option<u64>,
}

/// A stream being decoded. Build it with [`Decoder::open`], then call
/// [`Decoder::next_block`] until it returns `Ok(None)`.
pub struct Decoder {
    format: Box<dyn FormatReader>,
    track_id: u32,
    codec: Codec,
    info: StreamInfo,
    max_frames: Option<u64>,
    decoded_frames: u64,
    skipped_packets: u64,
    failed_in_a_row: u32,
    last_skip: Option<String>,
    /// The last packet's samples, interleaved, with its channels and rate.
    out: Vec<f32>,
    spec: (usize, u32),
    /// `out` holds the first block (decoded while opening), not yet returned.
    pending: bool,
    ended: bool,
    read: Arc<AtomicU64>,
}

/// Counts the bytes symphonia takes, for positions in messages.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Relaxed);
        Ok(n)
    }
}

impl Decoder {
    /// Reads the start of `input` until the format is known and the first audio is decoded.
    /// Blocks while `input` does. Errors: nothing arrived, not audio, an unsupported codec, a
    /// format the engine cannot play (channels, rate), the input ending inside the headers.
    pub fn open<R>(input: R, options: &DecodeOptions) -> Result<Decoder, DecodeError>
    where
        R: Read + Send + Sync + 'static,
    {
        let read = Arc::new(AtomicU64::new(0));
        let mut input = input;
        let io_error = |e: io::Error| {
            match e {
            e if is_stop(&e) => DecodeError::Stopped,
            e if e.kind() == io::ErrorKind::FileTooLarge => DecodeError::Unsupported(format!(
                "an MP4/M4A file whose index (moov) follows its audio is read whole before it plays, and this one is over {} bytes (put the index first: ffmpeg -movflags +faststart)",
                options.mp4_max_bytes()
            )),
            e => DecodeError::Corrupt(e.to_string()),
        }
        };
        let (layout, head) = mp4::sniff(&mut input).map_err(io_error)?;
        let source: Box<dyn MediaSource> = match layout {
            Layout::IndexLast => {
                let whole =
                    mp4::read_whole(&mut input, head, options.mp4_max_bytes()).map_err(io_error)?;
                read.store(whole.len() as u64, Relaxed);
                Box::new(io::Cursor::new(whole))
            }
            Layout::Streams => Box::new(ReadOnlySource::new(Counting {
                inner: io::Cursor::new(head).chain(input),
                read: read.clone(),
            })),
        };
        let mss = MediaSourceStream::new(source, Default::default());
        let format = probe(mss, &read, options.hint.as_deref()).map_err(|e| match e {
            // The whole file is here and symphonia found no index in it.
            DecodeError::Truncated { at, .. } if layout == Layout::IndexLast => {
                DecodeError::Truncated {
                    at,
                    what: "before the MP4/M4A index (moov atom)".into(),
                }
            }
            e => e,
        })?;
        let (track_id, params) = audio_track(format.as_ref())
            .ok_or_else(|| DecodeError::Unsupported("the container holds no audio track".into()))?;
        let (codec, name) = make_codec(&params)?;
        let mut decoder = Decoder {
            format,
            track_id,
            codec,
            info: StreamInfo {
                codec: name,
                sample_rate: params.sample_rate.unwrap_or(0),
                channels: params.channels.map_or(0, |c| c.count()),
                bit_depth: params.bits_per_sample,
                declared_frames: params.n_frames,
            },
            max_frames: None,
            decoded_frames: 0,
            skipped_packets: 0,
            failed_in_a_row: 0,
            last_skip: None,
            out: Vec::new(),
            spec: (0, 0),
            pending: false,
            ended: false,
            read,
        };
        // The first audio says the rate and channels for certain (some headers leave them out).
        if !decoder.next_packet()? {
            return Err(DecodeError::Truncated {
                at: decoder.bytes_read(),
                what: "before the first audio packet".into(),
            });
        }
        (decoder.info.channels, decoder.info.sample_rate) = decoder.spec;
        decoder.check_playable()?;
        decoder.max_frames = options
            .max_seconds
            .map(|s| (s.max(0.0) * f64::from(decoder.info.sample_rate)).round() as u64);
        decoder.pending = true;
        Ok(decoder)
    }

    fn check_playable(&self) -> Result<(), DecodeError> {
        let info = &self.info;
        if info.channels > MAX_CHANNELS {
            return Err(DecodeError::TooManyChannels {
                channels: info.channels,
                max: MAX_CHANNELS,
            });
        }
        if !(MIN_RATE..=MAX_RATE).contains(&info.sample_rate) {
            return Err(DecodeError::SampleRate {
                rate: info.sample_rate,
                min: MIN_RATE,
                max: MAX_RATE,
            });
        }
        Ok(())
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }

    /// Frames returned so far.
    pub fn decoded_frames(&self) -> u64 {
        self.decoded_frames
    }

    /// Packets that failed to decode and were skipped.
    pub fn skipped_packets(&self) -> u64 {
        self.skipped_packets
    }

    /// Why the last packet was skipped (for a log line).
    pub fn last_skip(&self) -> Option<&str> {
        self.last_skip.as_deref()
    }

    /// Bytes of input read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.load(Relaxed)
    }

    /// The next block of interleaved frames (one packet's), or `None` at the end of the stream
    /// (or of `max_seconds`). Blocks while the input does. Errors end the stream: the input
    /// stopped, too many packets in a row failed, the format changed, or a file ended before
    /// the length its header declares (everything before was returned).
    pub fn next_block(&mut self) -> Result<Option<&[f32]>, DecodeError> {
        if self.ended {
            return Ok(None);
        }
        let expected = (self.info.channels, self.info.sample_rate);
        if !std::mem::take(&mut self.pending) {
            if !self.next_packet()? {
                self.ended = true;
                return self.check_length().map(|()| None);
            }
            if self.spec != expected {
                let at_s = self.decoded_frames as f64 / f64::from(expected.1);
                return Err(DecodeError::Unsupported(format!(
                    "the stream changed from {} Hz {} ch to {} Hz {} ch at {at_s:.2} s",
                    expected.1, expected.0, self.spec.1, self.spec.0
                )));
            }
        }
        let channels = expected.0;
        let mut frames = (self.out.len() / channels) as u64;
        if let Some(max) = self.max_frames {
            if self.decoded_frames + frames >= max {
                frames = max - self.decoded_frames;
                self.ended = true;
            }
        }
        self.decoded_frames += frames;
        Ok(Some(&self.out[..frames as usize * channels]))
    }

    fn check_length(&self) -> Result<(), DecodeError> {
        let Some(declared) = self.info.declared_frames else {
            return Ok(());
        };
        // Codec priming and padding may differ from the header by a few packets.
        let slack = (declared / 100).max(8192);
        if self.decoded_frames + slack < declared {
            let rate = f64::from(self.info.sample_rate);
            return Err(DecodeError::EndedEarly {
                decoded_s: self.decoded_frames as f64 / rate,
                declared_s: declared as f64 / rate,
            });
        }
        Ok(())
    }

    /// Decodes packets until one yields audio (into `out` and `spec`): false at the end of the
    /// input.
    fn next_packet(&mut self) -> Result<bool, DecodeError> {
        loop {
            let packet = match self.format.next_packet() {
                Ok(p) if p.track_id() != self.track_id => continue,
                Ok(p) => p,
                Err(Error::IoError(e)) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Ok(false)
                }
                Err(Error::IoError(e)) if is_stop(&e) => return Err(DecodeError::Stopped),
                Err(Error::ResetRequired) => {
                    // A chained stream (a new logical Ogg stream: a radio's next song).
                    let (id, params) = audio_track(self.format.as_ref()).ok_or_else(|| {
                        DecodeError::Unsupported("the next chained stream holds no audio".into())
                    })?;
                    self.track_id = id;
                    self.codec = make_codec(&params)?.0;
                    continue;
                }
                Err(Error::DecodeError(m)) => {
                    self.skip(format!("{m} (while demuxing)"))?;
                    continue;
                }
                Err(e) => return Err(DecodeError::Corrupt(e.to_string())),
            };
            match self.decode(&packet) {
                Ok(true) => {
                    self.failed_in_a_row = 0;
                    return Ok(true);
                }
                Ok(false) => continue,
                Err(reason) => self.skip(reason)?,
            }
        }
    }

    /// Decodes `packet` into `out`: true when it yielded frames.
    fn decode(&mut self, packet: &Packet) -> Result<bool, String> {
        self.out.clear();
        match &mut self.codec {
            Codec::Opus(o) => {
                let c = o.channels();
                let samples = o.decode(packet.buf())?;
                // Gapless trimming the demuxer worked out (symphonia's own decoders apply it).
                let frames = samples.len() / c;
                let start = (packet.trim_start() as usize).min(frames);
                let end = frames.saturating_sub(packet.trim_end() as usize).max(start);
                self.out.extend_from_slice(&samples[start * c..end * c]);
                self.spec = (c, OPUS_RATE);
            }
            Codec::Symphonia(d, buf) => match d.decode(packet) {
                Ok(decoded) => {
                    if decoded.frames() == 0 {
                        return Ok(false);
                    }
                    let spec = *decoded.spec();
                    let fits = buf.as_ref().is_some_and(|b| {
                        b.capacity() >= decoded.capacity() && self.spec.0 == spec.channels.count()
                    });
                    if !fits {
                        *buf = None;
                    }
                    let b = buf
                        .get_or_insert_with(|| SampleBuffer::new(decoded.capacity() as u64, spec));
                    b.copy_interleaved_ref(decoded);
                    self.out.extend_from_slice(b.samples());
                    self.spec = (spec.channels.count(), spec.rate);
                }
                Err(Error::ResetRequired) => {
                    d.reset();
                    return Ok(false);
                }
                Err(e) => return Err(e.to_string()),
            },
        }
        Ok(!self.out.is_empty())
    }

    /// Counts a skipped packet; too many in a row end the stream.
    fn skip(&mut self, reason: String) -> Result<(), DecodeError> {
        self.skipped_packets += 1;
        self.failed_in_a_row += 1;
        let at_s = self.decoded_frames as f64 / f64::from(self.info.sample_rate.max(1));
        let at = format!(
            "{} packet at {at_s:.2} s (byte {}): {reason}",
            self.info.codec,
            self.bytes_read()
        );
        if self.failed_in_a_row >= MAX_FAILED_IN_A_ROW {
            return Err(DecodeError::Corrupt(format!(
                "{MAX_FAILED_IN_A_ROW} packets in a row failed to decode, the last a {at}"
            )));
        }
        self.last_skip = Some(at);
        Ok(())
    }
}
