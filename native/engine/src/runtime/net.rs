//! Receiver threads: one per UDP socket, each only reads datagrams, stamps them with the
//! monotonic clock and hands them to the engine thread through a bounded lock-free queue
//! (`std::sync::mpsc::sync_channel`, whose bounded form pre-allocates its slots: datagrams move
//! through by value and nothing allocates per packet).

use crate::runtime::fault::{Fault, Message};
use crate::runtime::scheduling;
use crate::runtime::stats::{add_thread_cpu, thread_cpu_ns, EngineCounters};
use crate::wire::PortKind;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{Sender, SyncSender, TrySendError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Largest datagram kept; anything longer is dropped as oversized.
pub const MAX_DATAGRAM: usize = 2048;

/// One received datagram, by value (a fixed-size slot).
pub struct Datagram {
    pub kind: PortKind,
    pub port: u16,
    pub from: SocketAddr,
    pub arrival: Instant,
    /// Datagram length; `MAX_DATAGRAM + 1` means it was longer than the buffer.
    pub len: usize,
    pub data: [u8; MAX_DATAGRAM],
}

/// A running receiver; stops (and closes its socket) when dropped.
pub struct Receiver {
    pub kind: PortKind,
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Receiver {
    /// Tells the thread to stop without waiting for it (dropping waits).
    pub fn request_stop(&self) {
        self.stop.store(true, Relaxed);
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Binds `bind:port` (port 0 picks one), joins the multicast groups, and starts a thread
/// feeding `queue`. Returns the receiver and the bound port.
pub(crate) fn spawn_receiver(
    kind: PortKind,
    bind: IpAddr,
    port: u16,
    groups: &[Ipv4Addr],
    queue: SyncSender<Datagram>,
    counters: Arc<EngineCounters>,
    faults: Sender<Message>,
) -> io::Result<Receiver> {
    // Only multicast listeners share their port (with other programs joining the group); a
    // unicast port is this engine's alone, so a second daemon cannot bind it too and both
    // claim to run while only one receives.
    let share = !groups.is_empty() || bind.is_multicast();
    let socket = bind_udp(bind, port, share)?;
    // Each group once: a second IP_ADD_MEMBERSHIP on one socket fails with EADDRINUSE, and a
    // source on several paths names its group once per path.
    for (i, group) in groups.iter().enumerate() {
        if groups[..i].contains(group) {
            continue;
        }
        let iface = match bind {
            IpAddr::V4(a) if !a.is_multicast() => a,
            _ => Ipv4Addr::UNSPECIFIED,
        };
        socket.join_multicast_v4(group, &iface)?;
    }
    socket.set_read_timeout(Some(Duration::from_millis(50)))?;
    let port = socket.local_addr()?.port();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name(format!("trib-rx-{port}"))
        .spawn(move || {
            let feed = Feed {
                kind,
                port,
                queue,
                stop: flag,
                counters,
                faults,
            };
            supervised_receive(&socket, &feed);
        })?;
    Ok(Receiver {
        kind,
        port,
        stop,
        thread: Some(thread),
    })
}

/// A UDP socket with a 1 MiB receive buffer; with SO_REUSEADDR when `share` (multicast
/// listeners share a port), else exclusive (binding a port in use fails with AddrInUse).
pub fn bind_udp(bind: IpAddr, port: u16, share: bool) -> io::Result<UdpSocket> {
    let domain = if bind.is_ipv4() {
        libc::AF_INET
    } else {
        libc::AF_INET6
    };
    // SAFETY: plain socket(2)/setsockopt(2) calls on a descriptor we own; ownership moves into
    // UdpSocket (which closes it) before any early return can leak it.
    let socket = unsafe {
        let fd = libc::socket(domain, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let socket = <UdpSocket as std::os::fd::FromRawFd>::from_raw_fd(fd);
        let one: libc::c_int = 1;
        let size: libc::c_int = 1 << 20;
        let len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        if share {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_REUSEADDR,
                (&one as *const libc::c_int).cast(),
                len,
            );
        }
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            (&size as *const libc::c_int).cast(),
            len,
        );
        socket
    };
    let addr = SocketAddr::new(bind, port);
    bind_socket(&socket, &addr)?;
    Ok(socket)
}

fn bind_socket(socket: &UdpSocket, addr: &SocketAddr) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = socket.as_raw_fd();
    // SAFETY: the sockaddr structs live on this stack frame for the duration of bind(2).
    let rc = unsafe {
        match addr {
            SocketAddr::V4(a) => {
                let sin = libc::sockaddr_in {
                    sin_family: libc::AF_INET as libc::sa_family_t,
                    sin_port: a.port().to_be(),
                    sin_addr: libc::in_addr {
                        s_addr: u32::from_ne_bytes(a.ip().octets()),
                    },
                    sin_zero: [0; 8],
                };
                libc::bind(
                    fd,
                    (&sin as *const libc::sockaddr_in).cast(),
                    std::mem::size_of_val(&sin) as libc::socklen_t,
                )
            }
            SocketAddr::V6(a) => {
                let sin6 = libc::sockaddr_in6 {
                    sin6_family: libc::AF_INET6 as libc::sa_family_t,
                    sin6_port: a.port().to_be(),
                    sin6_flowinfo: 0,
                    sin6_addr: libc::in6_addr {
                        s6_addr: a.ip().octets(),
                    },
                    sin6_scope_id: a.scope_id(),
                };
                libc::bind(
                    fd,
                    (&sin6 as *const libc::sockaddr_in6).cast(),
                    std::mem::size_of_val(&sin6) as libc::socklen_t,
                )
            }
        }
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// What a receiver thread works with besides its socket.
struct Feed {
    kind: PortKind,
    port: u16,
    queue: SyncSender<Datagram>,
    stop: Arc<AtomicBool>,
    counters: Arc<EngineCounters>,
    faults: Sender<Message>,
}

/// Runs [`receive_loop`] until told to stop; a panic in it is reported and the loop starts
/// again on the same socket (after a pause, so a fault on every datagram cannot spin).
fn supervised_receive(socket: &UdpSocket, feed: &Feed) {
    loop {
        let run = || receive_loop(socket, feed);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
            Ok(()) => return,
            Err(payload) => {
                let thread = format!("trib-rx-{}", feed.port);
                let fault = Fault::caught(thread, &*payload, None, false);
                if feed.faults.send(Message::Fault(fault)).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

fn receive_loop(socket: &UdpSocket, feed: &Feed) {
    let Feed {
        kind,
        port,
        queue,
        stop,
        counters,
        ..
    } = feed;
    let (kind, port) = (*kind, *port);
    scheduling::raise_current_thread(35);
    let mut cpu = thread_cpu_ns();
    let mut last_cpu_update = Instant::now();
    let mut slot = empty_datagram();
    let mut overflow = [0u8; MAX_DATAGRAM + 1];
    while !stop.load(Relaxed) {
        // Read into the slot; one byte more than it holds tells an oversized datagram apart.
        let result = socket.recv_from(&mut overflow);
        if last_cpu_update.elapsed() > Duration::from_millis(100) {
            cpu = add_thread_cpu(&counters.cpu_ns, cpu);
            last_cpu_update = Instant::now();
        }
        let (len, from) = match result {
            Ok(r) => r,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) =>
            {
                continue
            }
            Err(e) => {
                log::warn!("receiver on port {port}: {e}");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let keep = len.min(MAX_DATAGRAM);
        slot.data[..keep].copy_from_slice(&overflow[..keep]);
        slot.kind = kind;
        slot.port = port;
        slot.from = from;
        slot.arrival = Instant::now();
        slot.len = len;
        match queue.try_send(slot) {
            Ok(()) => slot = empty_datagram(),
            Err(TrySendError::Full(s)) => {
                counters.queue_overflows.fetch_add(1, Relaxed);
                slot = s;
            }
            Err(TrySendError::Disconnected(_)) => break,
        }
    }
    add_thread_cpu(&counters.cpu_ns, cpu);
}

/// An empty datagram (on the stack).
pub fn empty_datagram() -> Datagram {
    Datagram {
        kind: PortKind::Scream,
        port: 0,
        from: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0),
        arrival: Instant::now(),
        len: 0,
        data: [0; MAX_DATAGRAM],
    }
}
