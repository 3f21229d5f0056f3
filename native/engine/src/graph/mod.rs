//! The graph between sources and sinks.
//!
//! - [`tap`]: one source read at one delay and converted to one sink rate, once, for every
//!   path that needs exactly that (its [`reader`] keeps the jitter target, corrects drift and
//!   conceals gaps; its [`clock`] recovers the sender's rate, its moves are [`crossfade`]s,
//!   and what a listener would hear of it is counted in [`crate::source::glitches`]);
//! - [`path`]: a source playing on a sink: its frames from the tap through its [`stages`]
//!   (channel matrix, EQ, volume, normalisation);
//! - [`preview`]: a path run offline over a file (`tributary render`), the same stages in the
//!   same order.

pub mod clock;
pub mod crossfade;
pub mod path;
pub mod preview;
pub mod reader;
pub mod stages;
pub mod tap;
