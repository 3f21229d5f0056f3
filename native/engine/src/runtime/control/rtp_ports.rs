//! The RTP ports sources name, opened and closed as the configuration changes. A port is opened
//! (RTP, and RTCP on the next one) when a source first names it and closed once no source does,
//! so ports do not pile up as sources come and go; the ports of `options.rtp_ports` stay open.
//! A port that cannot be bound (another program holds it) is a problem of the apply that names
//! it, tried again at the next one; its RTCP neighbour is not opened without it (before, each
//! apply left one more RTCP receiver, a thread and a socket, behind: the soak found 9 threads
//! grow to 179 in five minutes).

use super::Control;
use crate::desired::{ConfigError, DesiredState};
use crate::runtime::net::{self, Receiver};
use crate::wire::PortKind;
use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr};

impl Control {
    /// Opens the receivers of the RTP ports `state`'s sources name that are not open, closes
    /// those no source names any more; returns a problem for each port that cannot be bound.
    pub(super) fn open_rtp_ports(&mut self, state: &DesiredState) -> Vec<ConfigError> {
        let paths = || state.sinks.iter().flat_map(|s| &s.paths);
        let wanted: HashSet<u16> = paths()
            .filter_map(|p| p.rtp.as_ref().map(|r| r.port))
            .collect();
        self.close_rtp_ports(&wanted);
        let mut problems = Vec::new();
        let mut ports: Vec<u16> = wanted.into_iter().collect();
        ports.sort_unstable();
        for port in ports {
            if self.listening(PortKind::Rtp, port) {
                continue;
            }
            let groups: Vec<Ipv4Addr> = self
                .options
                .multicast_groups
                .iter()
                .copied()
                .chain(
                    paths()
                        .filter_map(|p| p.rtp.as_ref())
                        .filter(|r| r.port == port)
                        .filter_map(|r| match r.listen_ip {
                            Some(IpAddr::V4(a)) if a.is_multicast() => Some(a),
                            _ => None,
                        }),
                )
                .collect();
            match self.spawn(PortKind::Rtp, port, &groups) {
                Ok(r) => {
                    self.ports.rtp.push(r.port);
                    self.receivers.push(r);
                }
                Err(e) => {
                    problems.push(ConfigError(format!(
                        "RTP port {port}: cannot listen ({e}); its sources hear nothing until it \
                         is free (tried again at the next change)"
                    )));
                    continue;
                }
            }
            let rtcp = port.wrapping_add(1);
            if !self.listening(PortKind::Rtcp, rtcp) {
                match self.spawn(PortKind::Rtcp, rtcp, &groups) {
                    Ok(r) => self.receivers.push(r),
                    Err(e) => {
                        log::warn!("no RTCP for RTP port {port}: cannot listen on {rtcp}: {e}")
                    }
                }
            }
        }
        problems
    }

    /// Closes the RTP and RTCP receivers of ports neither `wanted` nor fixed at start.
    fn close_rtp_ports(&mut self, wanted: &HashSet<u16>) {
        let keep = |rtp: u16| wanted.contains(&rtp) || self.fixed_rtp.contains(&rtp);
        let (gone, kept): (Vec<Receiver>, Vec<Receiver>) = std::mem::take(&mut self.receivers)
            .into_iter()
            .partition(|r| match r.kind {
                PortKind::Rtp => !keep(r.port),
                PortKind::Rtcp => !keep(r.port.wrapping_sub(1)),
                _ => false,
            });
        self.receivers = kept;
        if gone.is_empty() {
            return;
        }
        // Every thread told first, then each joined: one read timeout in all, not one each.
        for r in &gone {
            r.request_stop();
        }
        drop(gone);
        let fixed = &self.fixed_rtp;
        self.ports
            .rtp
            .retain(|p| wanted.contains(p) || fixed.contains(p));
    }

    fn listening(&self, kind: PortKind, port: u16) -> bool {
        self.receivers
            .iter()
            .any(|r| r.kind == kind && r.port == port)
    }

    fn spawn(&self, kind: PortKind, port: u16, groups: &[Ipv4Addr]) -> std::io::Result<Receiver> {
        net::spawn_receiver(
            kind,
            self.options.bind,
            port,
            groups,
            self.queue.clone(),
            self.counters.clone(),
            self.faults.clone(),
        )
    }
}
