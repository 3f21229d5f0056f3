//! Node.js binding of Tributary's native code. Only converts between JavaScript and Rust types;
//! the behaviour lives in the engine crate (and `tributary-dsp` under it). Tested from JavaScript
//! (`__test__/`), not with `cargo test`.

// Under cfg(test) (clippy --all-targets) napi-derive emits no registration code, so exported
// functions and objects look unused there.
#![cfg_attr(test, allow(dead_code))]

mod convert;
mod decoders;
mod eq;
mod format;
mod preview;
mod simd;
// Engine bindings (native/napi/src/engine*.rs) are declared below this line.
mod engine;
mod engine_decode;
#[cfg(feature = "fault-injection")]
mod engine_faults;
mod engine_health;
mod engine_levels;
mod engine_log;
mod engine_memory;
mod engine_options;
// Generated from the engine's report declarations (`npm run contract`), written as generated.
#[rustfmt::skip]
mod engine_reports;
mod engine_state;
mod engine_stats;
mod engine_streams;
mod engine_whep;
