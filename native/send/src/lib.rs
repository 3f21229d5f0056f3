//! `tributary send`: a Linux (and Raspberry Pi) sender. A PulseAudio/PipeWire source (a sink's
//! monitor, a line-in), an ALSA capture device or JACK's capture ports are captured and sent to the Tributary server as RTP (L16) or Scream, one
//! packet each time the source has produced one.
//!
//! By stage: [`options`] (the command line), [`packetiser`] (PCM to datagrams, pure),
//! [`pacer`] (when each packet leaves), [`capture`] (the PulseAudio record stream),
//! [`device_capture`] (ALSA or JACK through cpal, into a ring), [`input`] (either), [`sap`]
//! (the SAP/SDP announcement, pure) and [`announce`] (sending it), [`run`] (all of it from
//! start to stop).

pub mod announce;
pub mod capture;
pub mod device_capture;
pub mod input;
pub mod options;
pub mod pacer;
pub mod packetiser;
pub mod run;
pub mod sap;
