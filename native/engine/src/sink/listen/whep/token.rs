//! Unguessable names: session ids and the entity tags of ICE sessions.

use std::time::Instant;

/// 64 random bits (from the kernel; mixed with the clock should /dev/urandom be missing).
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        let _ = std::io::Read::read_exact(&mut f, &mut b);
    }
    u64::from_ne_bytes(b) ^ Instant::now().elapsed().as_nanos() as u64
}

/// A fresh entity tag for an ICE session: 24 hex digits.
pub fn new_etag() -> String {
    format!("{:016x}{:08x}", random_u64(), random_u64() as u32)
}
