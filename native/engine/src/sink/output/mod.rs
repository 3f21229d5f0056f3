//! Where a sink's audio goes: one module per transport behind one type, [`Output`], an enum
//! the engine thread calls without dynamic dispatch. Each transport ([`Transport`]) sets the
//! pace (frames per packet, period), encodes the mix and sends it:
//!
//! - [`scream`]: Scream over UDP, a 5-byte header + 1152-byte payloads;
//! - [`rtp`]: RTP L16/L24 over UDP, frame-aligned payloads of at most 1152 bytes, RTCP sender
//!   reports every 5 s on port + 1;
//! - [`tcp`]: raw PCM over a TCP connection the engine opens (and reopens) to the sink;
//! - [`card`]: a sound card on this machine, through a ring its playback thread drains.
//!
//! Adding a transport (MP3 over HTTP, Opus/WebRTC, a local sound card) is one module here that
//! implements [`Transport`] (in [`transport`], or, for a chunked PCM stream, [`stream::ChunkSender`]), and one
//! line in the `outputs!` list below (with its [`SinkProtocol`] variant in the desired state).

pub mod card;
mod pcm;
pub mod rtp;
pub mod scream;
pub mod stream;
pub mod tcp;
pub mod transport;

use crate::desired::{ConfigError, SinkProtocol, SinkSpec};
use crate::sink::mix::Mixed;
use crate::sink::output::transport::{SendContext, Transport};
use std::time::Duration;

/// Declares [`Output`], one variant per transport, and dispatches every call statically.
macro_rules! outputs {
    ($($protocol:ident => $variant:ident($transport:ty)),+ $(,)?) => {
        /// A sink's transport.
        pub enum Output {
            $($variant($transport)),+
        }

        impl Output {
            /// The transport `spec.protocol` names.
            pub fn new(spec: &SinkSpec, seed: u64) -> Result<Self, ConfigError> {
                Ok(match spec.protocol {
                    $(SinkProtocol::$protocol => Output::$variant(<$transport>::new(spec, seed)?)),+
                })
            }

            /// See [`Transport::max_frames`].
            pub fn max_frames(spec: &SinkSpec) -> usize {
                match spec.protocol {
                    $(SinkProtocol::$protocol => <$transport>::max_frames(spec)),+
                }
            }

            pub fn period(&self) -> Duration {
                match self {
                    $(Output::$variant(t) => t.period()),+
                }
            }

            pub fn next_render(&self) -> Option<(usize, f64)> {
                match self {
                    $(Output::$variant(t) => t.next_render()),+
                }
            }

            pub fn take(&mut self, mixed: Mixed<'_>) {
                match self {
                    $(Output::$variant(t) => t.take(mixed)),+
                }
            }

            pub fn send(&mut self, context: &SendContext<'_>) {
                match self {
                    $(Output::$variant(t) => t.send(context)),+
                }
            }

            /// The card this output feeds, for a card sink with a registered card.
            pub fn card(&self) -> Option<&std::sync::Arc<card::CardShared>> {
                match self {
                    Output::Card(c) => c.shared(),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            /// Carries on `previous`'s stream when it is the same transport.
            pub fn continue_from(&mut self, previous: &Output) {
                #[allow(unreachable_patterns)]
                match (self, previous) {
                    $((Output::$variant(t), Output::$variant(p)) => t.continue_from(p),)+
                    _ => {}
                }
            }
        }
    };
}

outputs! {
    Scream => Scream(scream::ScreamOutput),
    Rtp => Rtp(rtp::RtpOutput),
    Tcp => Tcp(tcp::TcpOutput),
    Card => Card(card::CardOutput),
}
