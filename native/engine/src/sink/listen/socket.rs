//! How far behind a listener's TCP connection is: the bytes the kernel still holds for it
//! (sent but not acknowledged, or not sent yet). A stalled player's window closes and this
//! grows, by megabytes on a fast link before the application's own queue grows at all; the
//! daemon adds the two to tell a slow listener.

/// Bytes in the send queue of the TCP socket `fd`, or `None` if it is not one.
pub fn tcp_send_queue(fd: i32) -> Option<usize> {
    let mut queued: libc::c_int = 0;
    // SAFETY: TIOCOUTQ (SIOCOUTQ) writes one c_int into `queued`, which we own; an invalid
    // descriptor only makes the call fail.
    let rc = unsafe { libc::ioctl(fd, libc::TIOCOUTQ, &mut queued) };
    (rc == 0 && queued >= 0).then_some(queued as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};
    use std::os::fd::AsRawFd;

    #[test]
    fn counts_what_a_reader_that_never_reads_leaves_queued() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut writer = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (_reader, _) = listener.accept().unwrap();
        assert_eq!(tcp_send_queue(writer.as_raw_fd()), Some(0));
        writer.set_nonblocking(true).unwrap();
        let mut written = 0;
        while written < 8_000_000 {
            match writer.write(&[0u8; 65536]) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        let queued = tcp_send_queue(writer.as_raw_fd()).unwrap();
        assert!(queued > 0 && queued <= written, "{queued} of {written}");
        assert_eq!(tcp_send_queue(-1), None);
    }
}
