//! Logging for the engine's threads: one line to stderr, prefixed, never a panic. Callers on
//! the real-time path only log on rare events (errors, format changes), never per packet.

/// Logs a warning.
pub fn warn(message: &str) {
    eprintln!("tributary-engine: warning: {message}");
}

/// Logs an informational event.
pub fn info(message: &str) {
    eprintln!("tributary-engine: {message}");
}

/// Logs an error (a fault of one of the engine's threads).
pub fn error(message: &str) {
    eprintln!("tributary-engine: error: {message}");
}
