//! A cap on glibc's malloc arenas for the process the engine runs in. glibc gives each new
//! thread an arena of its own until there are eight per core, and an arena keeps what it once
//! held: the engine's receiver threads come and go with their sources (a SAP stream appears, a
//! port is added and removed), so a long-lived router held more and more memory it no longer
//! used. The soak measured it (12-minute runs side by side): the daemon's thread arenas held 8 MB
//! at 4 minutes and 13 MB at 8 with the default, 4 and 5 MB with two. Two arenas are plenty for
//! a process whose real-time threads do not allocate. `MALLOC_ARENA_MAX` in the environment, which glibc
//! reads itself, wins; other C libraries (musl) are left alone.

/// The arenas the engine's process keeps at most.
pub const ARENAS: i32 = 2;

/// Caps the arenas (once; before the engine's threads start). Returns whether this call set it.
pub fn limit_malloc_arenas() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::sync::Once;
        static ONCE: Once = Once::new();
        let mut set = false;
        ONCE.call_once(|| {
            if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
                // SAFETY: mallopt only changes allocator tuning; M_ARENA_MAX takes effect for
                // arenas created from now on and is safe to call while other threads allocate.
                set = unsafe { libc::mallopt(libc::M_ARENA_MAX, ARENAS) } == 1;
            }
        });
        set
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    false
}
