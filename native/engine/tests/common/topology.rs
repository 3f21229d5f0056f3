//! The topology of the graph and loopback benches: which sources each sink mixes, the per-path
//! equalizer curves, the specs of sources' paths and sinks. The numbers come from the command
//! line (`args.rs`, which this extends). Included by `#[path]` beside `args`.
#![allow(dead_code)]

use super::args::{BenchArgs, Eq};
use std::net::IpAddr;
use tributary_dsp::ChannelLayout;
use tributary_engine::limits::EQ_BANDS;
use tributary_engine::{PathSpec, SinkProtocol, SinkSpec};

impl BenchArgs {
    /// The sources sink `j` mixes: `per_sink` consecutive ones from `j * per_sink` (mod N).
    pub fn sources_of(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.per_sink).map(move |k| (j * self.per_sink + k) % self.sources)
    }

    pub fn paths(&self) -> usize {
        self.sinks * self.per_sink
    }

    /// The curve of source `i` on sink `j`.
    pub fn eq_for(&self, i: usize, j: usize) -> [f32; EQ_BANDS] {
        match self.eq {
            Eq::Flat => [1.0; EQ_BANDS],
            Eq::Same => curve(0),
            Eq::Distinct => curve(j * self.sources + i),
        }
    }
}

/// A non-flat 18-band curve (two bands in three moved, up to +-3.5 dB); `variant` shifts which
/// bands and by how much.
pub fn curve(variant: usize) -> [f32; EQ_BANDS] {
    std::array::from_fn(|b| match (b + variant) % 3 {
        0 => 1.4 + (variant % 7) as f32 * 0.02,
        1 => 0.7 - (variant % 5) as f32 * 0.02,
        _ => 1.0,
    })
}

/// Source `i`'s path: matched by `ip`, volume 0.8.
pub fn path(i: usize, ip: Option<IpAddr>, eq: [f32; EQ_BANDS]) -> PathSpec {
    PathSpec {
        ip,
        volume: 0.8,
        eq,
        ..PathSpec::new(&format!("src{i}"))
    }
}

/// Sink `j`: Scream, 48 kHz stereo 16-bit, to `ip:port` (`None`: renders, sends nothing).
pub fn sink(j: usize, ip: Option<IpAddr>, port: u16, paths: Vec<PathSpec>) -> SinkSpec {
    SinkSpec {
        ip,
        port,
        paths,
        ..SinkSpec::new(
            &format!("sink{j}"),
            SinkProtocol::Scream,
            48_000,
            16,
            ChannelLayout::STEREO,
        )
    }
}
