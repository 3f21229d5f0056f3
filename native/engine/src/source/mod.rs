//! Sources: what arrives from each sender, kept until every path has played it.
//!
//! - [`slot`]: the engine thread's record of one source (how streams are matched to it, its
//!   buffer, its counters, format changes);
//! - [`buffer`]: the receive side and jitter buffer (packets placed by timestamp or byte
//!   position, loss and reordering counted, the adaptive target), on a [`timeline`] ring that
//!   is also the timeshift buffer (payloads decoded by `tributary_dsp::decode_into`);
//!   [`drift`] estimates the sender's clock against ours;
//! - [`counters`]: what a source publishes ([`glitches`]: what its readers did that a listener
//!   could hear); [`unknown`]: senders no source matches; [`sender_lock`]: one sender per
//!   source (a second one at the same time is dropped and counted).
//!
//! A decoded input (a URL played, a plugin's stream) becomes a source by writing a buffer:
//! [`memory`] is that door (a lock-free ring a writer fills, moved into the buffer on the
//! router's clock).

pub mod buffer;
pub mod counters;
pub mod drift;
pub mod glitch_log;
pub mod glitches;
pub mod memory;
pub mod sender_lock;
pub mod slot;
pub mod timeline;
pub mod unknown;
