//! Arrival times stamped by the kernel (`SO_TIMESTAMPNS`): when a datagram reached the socket,
//! not when the receiving thread got to run. On loopback the kernel stamps it while the sender
//! is still in `sendto`, so the stamps give the sender's cadence even when the measuring threads
//! wait for a CPU behind the engine's real-time threads (a 2-core machine under full load).

use std::io;
use std::net::UdpSocket;
use std::os::fd::AsRawFd;

/// Asks the kernel to stamp every datagram `socket` receives from now on.
pub fn stamp_arrivals(socket: &UdpSocket) -> io::Result<()> {
    let on: libc::c_int = 1;
    // SAFETY: a valid socket descriptor and a c_int option value of the size passed.
    let r = unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_TIMESTAMPNS,
            (&on as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Receives one datagram into `buf`; returns its length and the kernel's arrival stamp in
/// seconds (CLOCK_REALTIME: only differences mean anything). The socket's read timeout applies.
pub fn recv_stamped(socket: &UdpSocket, buf: &mut [u8]) -> io::Result<(usize, f64)> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    // u64 elements: aligned for cmsghdr; room for one timespec message and more.
    let mut control = [0u64; 16];
    // SAFETY: msghdr is plain data; all-zero is a valid empty header.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control) as _;
    // SAFETY: msg points at live buffers of the lengths it states.
    let n = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut msg, 0) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the CMSG_* macros walk the control buffer the kernel filled within msg_controllen.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            let c = &*cmsg;
            if c.cmsg_level == libc::SOL_SOCKET && c.cmsg_type == libc::SCM_TIMESTAMPNS {
                let ts: libc::timespec = std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast());
                return Ok((n as usize, ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9));
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    Err(io::Error::other(
        "the datagram came without a kernel timestamp",
    ))
}

/// p99 of |interval - nominal| in ms over consecutive arrival times in seconds; `nominal`
/// `None` takes the median interval (a sender whose packets may hold more than 6 ms).
pub fn cadence_jitter_ms(times: &[f64], nominal: Option<f64>) -> Vec<f64> {
    let intervals: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    let nominal = nominal.unwrap_or_else(|| {
        let mut sorted = intervals.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
    });
    intervals
        .iter()
        .map(|d| (d - nominal).abs() * 1000.0)
        .collect()
}
