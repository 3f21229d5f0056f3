//! `tributary receive`: a Linux (and Raspberry Pi) receiver. Scream (or RTP) from the network goes
//! through the engine (`tributary-engine`: its jitter buffer, drift correction and mixer, on a
//! sink whose clock the sound server pulls) to PulseAudio or PipeWire.
//!
//! By stage: [`options`] (the command line), [`receiver`] (the engine and the sender it
//! plays), [`output`] (the sound server back ends), [`report`] (`-v`), [`signals`],
//! [`identity`] (the kept `config_id`), [`advertise`] (mDNS), [`run`] (all of it from start to
//! stop).

pub mod advertise;
pub mod identity;
pub mod options;
pub mod output;
pub mod receiver;
pub mod report;
pub mod run;
pub mod signals;
