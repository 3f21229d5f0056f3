//! Scream over UDP: every tick one packet, the 5-byte header (rate, bit depth, channels, mask)
//! and 1152 bytes of little-endian PCM (6 ms at 48 kHz stereo 16-bit).

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::output::stream::{ChunkSender, Chunked, CHUNK};
use crate::sink::output::transport::{destination, send_datagram, SendContext};
use crate::wire::scream::{ScreamFormat, HEADER_LEN};
use std::net::SocketAddr;

/// Scream as a sink's transport.
pub type ScreamOutput = Chunked<ScreamSender>;

/// Sends each chunk behind the Scream header.
pub struct ScreamSender {
    dest: Option<SocketAddr>,
    packet: [u8; HEADER_LEN + CHUNK],
}

impl ChunkSender for ScreamSender {
    fn new(spec: &SinkSpec) -> Result<Self, ConfigError> {
        let mask = spec.layout.mask() as u16;
        let header = ScreamFormat {
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
        let mut packet = [0; HEADER_LEN + CHUNK];
        packet[..HEADER_LEN].copy_from_slice(&header);
        Ok(Self {
            dest: destination(spec),
            packet,
        })
    }

    fn send(&mut self, chunk: &[u8], context: &SendContext<'_>) {
        if let Some(dest) = self.dest {
            self.packet[HEADER_LEN..].copy_from_slice(chunk);
            send_datagram(context, &self.packet, dest);
        }
    }
}
