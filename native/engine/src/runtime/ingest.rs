//! Ingest on the engine thread: one datagram parsed, matched to its source and written to the
//! source's buffer; what no source matches is remembered as an unknown sender, what is
//! malformed is dropped and counted. Never panics, never allocates (except remembering a new
//! unknown sender).

use crate::runtime::net::{Datagram, MAX_DATAGRAM};
use crate::runtime::worker::Worker;
use crate::source::counters::{pack_format, DetectedFormat};
use crate::source::sender_lock::SenderId;
use crate::source::slot::default_mask;
use crate::wire::packet::DropReason;
use crate::wire::rtcp::{self, RtcpPacket};
use crate::wire::rtp::{self, RtpFormat};
use crate::wire::{scream, tagged, PortKind, SenderKind};
use crate::work::{self, Work};
use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;

impl Worker {
    /// Handles one datagram.
    pub(crate) fn ingest(&mut self, d: &Datagram) {
        let arrival_s = d
            .arrival
            .saturating_duration_since(self.epoch)
            .as_secs_f64();
        let from = d.from.ip();
        let from = match from {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(from),
            v4 => v4,
        };
        if d.len > MAX_DATAGRAM {
            self.malformed(d.kind, from, d.port, DropReason::Oversized);
            return;
        }
        let bytes = &d.data[..d.len];
        match d.kind {
            PortKind::Scream => match scream::parse(bytes) {
                Ok(p) => {
                    let idx = self
                        .sources
                        .iter()
                        .position(|s| s.rtp.is_none() && s.tag.is_none() && s.ip == Some(from));
                    self.scream_into(idx, SenderKind::Scream, p, from, d, arrival_s);
                }
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::TaggedScream => match tagged::parse(bytes) {
                Ok(p) => {
                    p.write_tag(&mut self.tag);
                    let tag = self.tag.as_str();
                    let idx = self
                        .sources
                        .iter()
                        .position(|s| s.tag.as_deref() == Some(tag));
                    self.scream_into(idx, SenderKind::ScreamTagged, p.scream, from, d, arrival_s);
                }
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::Rtp => match rtp::parse(bytes) {
                Ok(p) => self.rtp_into(p, from, d, arrival_s),
                Err(e) => self.malformed(d.kind, from, d.port, e),
            },
            PortKind::Rtcp => self.rtcp_into(bytes, from, d.port),
        }
        work::working_on(Work::Idle);
    }

    fn scream_into(
        &mut self,
        idx: Option<usize>,
        kind: SenderKind,
        p: scream::ScreamPacket<'_>,
        from: IpAddr,
        d: &Datagram,
        arrival_s: f64,
    ) {
        let port = d.port;
        let f = p.format;
        let detected = DetectedFormat {
            kind,
            bit_depth: f.bit_depth,
            channels: f.channels,
            big_endian: false,
            float: false,
            sample_rate: f.sample_rate,
        };
        if let Some(i) = idx {
            work::working_on(Work::Source(i));
            #[cfg(feature = "fault-injection")]
            self.injected.source_packet(&self.sources[i].id);
        }
        let Some(slot) = idx.and_then(|i| self.sources.get_mut(i)) else {
            let tag = (kind == SenderKind::ScreamTagged).then_some(());
            self.unknown_sender(kind, from, port, tag, pack_format(detected));
            return;
        };
        let sender = SenderId {
            ip: from,
            port: d.from.port(),
            ssrc: 0,
        };
        if !slot.sender.admit(sender, arrival_s, &slot.counters) {
            return;
        }
        let channels = usize::from(f.channels);
        let changed = slot.buffer.rate() != f.sample_rate
            || slot.buffer.channels() != channels
            || slot.mask != u32::from(f.channel_mask)
            || (slot.bit_depth != 0 && slot.bit_depth != f.bit_depth);
        if changed {
            if !slot.may_reformat(arrival_s) {
                slot.counters.malformed.fetch_add(1, Relaxed);
                return;
            }
            slot.reformat(f.sample_rate, channels, u32::from(f.channel_mask));
        }
        slot.bit_depth = f.bit_depth;
        slot.note_format(detected);
        slot.buffer
            .push_scream(p.payload, f.sample_format(), arrival_s);
    }

    fn rtp_into(&mut self, p: rtp::RtpPacket<'_>, from: IpAddr, d: &Datagram, arrival_s: f64) {
        let port = d.port;
        let idx = self.sources.iter().position(|s| {
            s.rtp.as_ref().is_some_and(|r| {
                r.port == port && r.payload_type.is_none_or(|pt| pt == p.payload_type)
            }) && s.ip.is_none_or(|ip| ip == from)
        });
        if let Some(i) = idx {
            work::working_on(Work::Source(i));
            #[cfg(feature = "fault-injection")]
            self.injected.source_packet(&self.sources[i].id);
        }
        let Some(slot) = idx.and_then(|i| self.sources.get_mut(i)) else {
            let f = RtpFormat::from_static_payload_type(p.payload_type).unwrap_or(self.default_rtp);
            let detected = rtp_detected(&f);
            self.unknown_sender(SenderKind::Rtp, from, port, None, pack_format(detected));
            return;
        };
        let sender = SenderId {
            ip: from,
            port: d.from.port(),
            ssrc: p.ssrc,
        };
        if !slot.sender.admit(sender, arrival_s, &slot.counters) {
            return;
        }
        let Some(spec) = slot.rtp.as_ref() else {
            return;
        };
        // A static payload type (RFC 3551: 10 and 11 are L16 stereo and mono at 44.1 kHz)
        // says the format by itself; a dynamic one means what the source's settings say.
        let f = RtpFormat::from_static_payload_type(p.payload_type).unwrap_or(spec.format);
        slot.note_mismatch(p.payload_type, f != spec.format);
        let channels = usize::from(f.channels);
        if slot.buffer.rate() != f.sample_rate || slot.buffer.channels() != channels {
            if !slot.may_reformat(arrival_s) {
                slot.counters.malformed.fetch_add(1, Relaxed);
                return;
            }
            slot.reformat(f.sample_rate, channels, default_mask(channels));
        }
        if !p.payload.len().is_multiple_of(f.frame_bytes()) {
            slot.counters.malformed.fetch_add(1, Relaxed);
            return;
        }
        slot.note_format(rtp_detected(&f));
        slot.buffer
            .push_rtp(p.sequence, p.timestamp, p.payload, f.encoding, arrival_s);
    }

    fn rtcp_into(&mut self, bytes: &[u8], from: IpAddr, port: u16) {
        let rtp_port = port.wrapping_sub(1);
        let slot = self.sources.iter().find(|s| {
            s.rtp.as_ref().is_some_and(|r| r.port == rtp_port) && s.ip.is_none_or(|ip| ip == from)
        });
        let Some(slot) = slot else {
            self.counters.unknown_packets.fetch_add(1, Relaxed);
            return;
        };
        for packet in rtcp::parse(bytes).take(32) {
            match packet {
                Ok(RtcpPacket::SenderReport { .. } | RtcpPacket::ReceiverReport { .. }) => {
                    slot.counters.rtcp_packets.fetch_add(1, Relaxed);
                }
                Ok(_) => {}
                Err(_) => {
                    slot.counters.malformed.fetch_add(1, Relaxed);
                    break;
                }
            }
        }
    }

    fn malformed(&mut self, kind: PortKind, from: IpAddr, port: u16, _why: DropReason) {
        // Charge it to the source that sender feeds, if any.
        let slot = self.sources.iter().find(|s| match kind {
            PortKind::Rtp | PortKind::Rtcp => {
                s.rtp.as_ref().is_some_and(|r| r.port == port) && s.ip.is_none_or(|ip| ip == from)
            }
            _ => s.rtp.is_none() && s.ip == Some(from),
        });
        match slot {
            Some(s) => {
                s.counters.malformed.fetch_add(1, Relaxed);
            }
            None => {
                self.counters.malformed_unknown.fetch_add(1, Relaxed);
            }
        }
    }

    fn unknown_sender(
        &mut self,
        kind: SenderKind,
        address: IpAddr,
        port: u16,
        tagged: Option<()>,
        format: u64,
    ) {
        self.counters.unknown_packets.fetch_add(1, Relaxed);
        let tag = tagged.map(|()| self.tag.as_str());
        self.unknown.note(kind, address, port, tag, format);
    }
}

fn rtp_detected(f: &RtpFormat) -> DetectedFormat {
    DetectedFormat {
        kind: SenderKind::Rtp,
        bit_depth: (f.encoding.bytes_per_sample() * 8) as u8,
        channels: f.channels,
        big_endian: f.encoding != tributary_dsp::SampleFormat::S16Le,
        float: false,
        sample_rate: f.sample_rate,
    }
}
