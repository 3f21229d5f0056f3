//! Tributary's DSP core. Pure functions and pre-allocated processors: no sockets, no threads,
//! no napi. Everything on the real-time path writes into caller-provided buffers.

pub mod sample_format;
