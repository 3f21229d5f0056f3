//! The engine caps glibc's malloc arenas (runtime::malloc_arenas): threads that come and go, as
//! receiver threads do with their sources, share two arenas instead of each taking one of its own
//! and keeping it. A process of its own (an integration test file), so no other test's threads
//! made arenas before it counts them.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn threads_that_come_and_go_share_two_arenas() {
    use tributary_engine::runtime::malloc_arenas::{limit_malloc_arenas, ARENAS};

    /// How many arenas glibc has: the `<heap nr=` entries of malloc_info's report.
    fn arenas() -> usize {
        let mut buf: *mut libc::c_char = std::ptr::null_mut();
        let mut len: libc::size_t = 0;
        // SAFETY: open_memstream allocates the buffer it writes to; it is read after fclose
        // and freed once.
        unsafe {
            let f = libc::open_memstream(&mut buf, &mut len);
            assert!(!f.is_null());
            assert_eq!(libc::malloc_info(0, f), 0);
            libc::fclose(f);
            let text = std::slice::from_raw_parts(buf as *const u8, len).to_vec();
            libc::free(buf as *mut libc::c_void);
            String::from_utf8_lossy(&text).matches("<heap nr=").count()
        }
    }

    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        eprintln!("MALLOC_ARENA_MAX is set: glibc's own cap applies, nothing to test");
        return;
    }
    assert!(limit_malloc_arenas(), "the cap was set");
    // Eight rounds of eight threads, all allocating at once (as many arenas as glibc would give
    // them: without the cap, up to eight per core).
    for _ in 0..8 {
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    let blocks: Vec<Vec<u8>> = (0..64).map(|k| vec![i as u8; 1024 + k]).collect();
                    std::hint::black_box(&blocks);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }
    let n = arenas();
    assert!(n <= ARENAS as usize, "{n} arenas, at most {ARENAS} allowed");
    assert!(!limit_malloc_arenas(), "set once");
}
