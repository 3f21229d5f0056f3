//! MPEG audio (Layer III) frame headers, and a splitter that turns an encoder's byte stream
//! into whole frames. LAME returns bytes as its bit reservoir allows, not frame by frame; a
//! listener joining a stream must start on a frame header, so frames are what is shared.

/// Bit rates (kbit/s) by index, MPEG-1 Layer III.
const MPEG1_KBPS: [u32; 15] = [
    0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
];
/// Bit rates (kbit/s) by index, MPEG-2 and 2.5 Layer III.
const MPEG2_KBPS: [u32; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/// Sample rates by index, MPEG-1 (MPEG-2 halves them, MPEG-2.5 quarters them).
const MPEG1_RATES: [u32; 3] = [44_100, 48_000, 32_000];

/// What a Layer III frame header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameHeader {
    /// 1 for MPEG-1, 2 for MPEG-2, 25 for MPEG-2.5.
    pub version: u8,
    pub bitrate_kbps: u32,
    pub sample_rate: u32,
    pub channels: u8,
    /// Bytes of the whole frame, header included.
    pub length: usize,
    /// PCM frames (samples per channel) the frame decodes to.
    pub samples: usize,
}

impl FrameHeader {
    /// Parses the 4 header bytes; `None` unless they are a valid Layer III header (free
    /// format, reserved rates and other layers are refused).
    pub fn parse(b: &[u8]) -> Option<Self> {
        if b.len() < 4 || b[0] != 0xFF || b[1] & 0xE0 != 0xE0 {
            return None;
        }
        let version = match (b[1] >> 3) & 3 {
            0 => 25,
            2 => 2,
            3 => 1,
            _ => return None,
        };
        if (b[1] >> 1) & 3 != 1 {
            return None; // not Layer III
        }
        let bitrate_index = usize::from(b[2] >> 4);
        let rate_index = usize::from((b[2] >> 2) & 3);
        if bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
            return None;
        }
        let padding = usize::from((b[2] >> 1) & 1);
        let (bitrate_kbps, sample_rate, samples) = match version {
            1 => (MPEG1_KBPS[bitrate_index], MPEG1_RATES[rate_index], 1152),
            2 => (MPEG2_KBPS[bitrate_index], MPEG1_RATES[rate_index] / 2, 576),
            _ => (MPEG2_KBPS[bitrate_index], MPEG1_RATES[rate_index] / 4, 576),
        };
        let length = samples / 8 * bitrate_kbps as usize * 1000 / sample_rate as usize + padding;
        let channels = if b[3] >> 6 == 3 { 1 } else { 2 };
        Some(Self {
            version,
            bitrate_kbps,
            sample_rate,
            channels,
            length,
            samples,
        })
    }
}

/// Collects an encoder's output and hands out whole frames. Bytes before the first header
/// (none from LAME without tags) are skipped and counted.
pub struct FrameSplitter {
    pending: Vec<u8>,
    /// Bytes dropped while looking for a frame header.
    pub skipped: u64,
}

impl FrameSplitter {
    /// A splitter whose buffer holds `capacity` bytes before it grows.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            pending: Vec::with_capacity(capacity),
            skipped: 0,
        }
    }

    /// Adds `bytes` and calls `frame` with each frame completed by them, in order.
    pub fn push(&mut self, bytes: &[u8], mut frame: impl FnMut(&[u8], &FrameHeader)) {
        self.pending.extend_from_slice(bytes);
        let mut at = 0;
        while self.pending.len() - at >= 4 {
            let Some(header) = FrameHeader::parse(&self.pending[at..]) else {
                at += 1;
                self.skipped += 1;
                continue;
            };
            if self.pending.len() - at < header.length {
                break;
            }
            frame(&self.pending[at..at + header.length], &header);
            at += header.length;
        }
        self.pending.drain(..at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_320_kbps_48_khz_stereo_header() {
        // sync, MPEG-1, Layer III, no CRC; index 14 (320), 48 kHz, no padding; stereo.
        let h = FrameHeader::parse(&[0xFF, 0xFB, 0xE4, 0x00]).unwrap();
        assert_eq!(h.version, 1);
        assert_eq!(h.bitrate_kbps, 320);
        assert_eq!(h.sample_rate, 48_000);
        assert_eq!(h.channels, 2);
        assert_eq!(h.length, 960);
        assert_eq!(h.samples, 1152);
    }

    #[test]
    fn a_padded_44_1_khz_frame_is_one_byte_longer() {
        let plain = FrameHeader::parse(&[0xFF, 0xFB, 0xE0, 0xC0]).unwrap();
        let padded = FrameHeader::parse(&[0xFF, 0xFB, 0xE2, 0xC0]).unwrap();
        assert_eq!(plain.sample_rate, 44_100);
        assert_eq!(plain.channels, 1);
        assert_eq!(plain.length, 1044);
        assert_eq!(padded.length, 1045);
    }

    #[test]
    fn refuses_what_is_not_a_layer_iii_header() {
        assert_eq!(FrameHeader::parse(&[0xFF, 0xFD, 0xE4, 0]), None); // Layer II
        assert_eq!(FrameHeader::parse(&[0xFF, 0xFB, 0xF4, 0]), None); // bad bitrate
        assert_eq!(FrameHeader::parse(&[0xFF, 0xFB, 0x0C, 0]), None); // free format, bad rate
        assert_eq!(FrameHeader::parse(&[0x7F, 0xFB, 0xE4, 0]), None);
        assert_eq!(FrameHeader::parse(&[0xFF, 0xFB]), None);
    }

    #[test]
    fn splits_a_stream_cut_anywhere_into_whole_frames() {
        let mut stream = vec![1, 2, 3]; // junk before the first header
        for pad in [0u8, 2, 0] {
            let mut frame = vec![0u8; 1044 + usize::from(pad / 2)];
            frame[..4].copy_from_slice(&[0xFF, 0xFB, 0xE0 | pad, 0x00]);
            stream.extend_from_slice(&frame);
        }
        let mut splitter = FrameSplitter::with_capacity(4096);
        let mut lengths = Vec::new();
        for piece in stream.chunks(100) {
            splitter.push(piece, |f, h| {
                assert_eq!(f.len(), h.length);
                assert_eq!(f[0], 0xFF);
                lengths.push(f.len());
            });
        }
        assert_eq!(lengths, [1044, 1045, 1044]);
        assert_eq!(splitter.skipped, 3);
    }
}
