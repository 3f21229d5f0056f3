// DISCOVERY=off opens no discovery socket, whatever config.yaml says: the real daemon, with SAP
// and mDNS switched on in its file, has no UDP socket on 9875 or 5353 once the API listens (when
// mDNS learns the API port), nor after its discovery settings and entries change. The same
// daemon with DISCOVERY=on has both, which shows the check reads the sockets it means to.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiscoveryStatus } from '../../../src/schema/discovery-status.js';
import { get, waitFor, withLab } from './lab.js';
import { udpPortsOf } from './udp-ports.js';

const DISCOVERY_PORTS = [9875, 5353];
const config = `
sinks:
  - name: Garden
    ip: 239.255.77.1
    port: 5004
    protocol: rtp
sap:
  enabled: true
  listener:
    auto_add_sources: true
mdns:
  enabled: true
  advertise: true
  browse: true
`;

const discoveryPorts = (pid: number) => udpPortsOf(pid).filter((p) => DISCOVERY_PORTS.includes(p));

export default () =>
  withLab(async (lab) => {
    // Control: with DISCOVERY=on the same reading finds both ports.
    const on = await lab.daemon(config, { ENGINE: 'off' });
    const onListening = performance.now();
    const onPorts = await waitFor(
      'the discovery sockets of DISCOVERY=on',
      () => (discoveryPorts(on.child.pid!).length === 2 ? discoveryPorts(on.child.pid!) : false),
      10_000,
      () => on.output(),
    );
    // How long after the API listens the sockets appear when discovery is on (waitFor polls
    // every 50 ms): the DISCOVERY=off daemon is watched 5x as long (at least 1.5 s) for them,
    // after it listens and after each change, as no later event would tell they are not coming.
    const controlBindMs = Math.round(performance.now() - onListening);
    const watchMs = Math.max(1500, 5 * controlBindMs);
    await on.stop('SIGTERM');

    const off = await lab.daemon(config, { ENGINE: 'off', DISCOVERY: 'off' });
    const pid = off.child.pid!;
    // The API listens (the daemon printed its URLs): mDNS is told the port now.
    await sleep(watchMs);
    const afterListen = discoveryPorts(pid);
    const status = await get<DiscoveryStatus>(off, '/api/discovery');

    // Configuration changes: discovery settings through the API, an entry, and a hand edit.
    const put = await off.call('PUT', '/api/discovery/settings', {
      sap: { listener: { cleanup_timeout: 12 }, announcer: { interval: 2 } },
      mdns: { browse_interval: 2, hostname: 'studio' },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const sink = await off.call('PUT', '/sinks/Garden', { volume: 0.5 });
    assert.equal(sink.status, 200, JSON.stringify(sink.body));
    await sleep(watchMs);
    const afterChange = discoveryPorts(pid);
    const statusAfter = await get<DiscoveryStatus>(off, '/api/discovery');
    const stats = await get<{ discovery: { sap: { state: string }; mdns: { state: string } } }>(
      off,
      '/api/stats',
    );
    return {
      control_on_ports: onPorts,
      control_bind_ms: controlBindMs,
      watch_ms: watchMs,
      all_udp_ports_off: udpPortsOf(pid),
      ports_after_listen: afterListen,
      ports_after_change: afterChange,
      states: [
        status.enabled,
        status.sap.state,
        status.sap.announcer.state,
        status.mdns.state,
        statusAfter.sap.state,
        statusAfter.sap.announcer.state,
        statusAfter.mdns.state,
        stats.discovery.sap.state,
        stats.discovery.mdns.state,
      ],
      log_mentions_discovery: /SAP: listening|mDNS: answering/.test(off.output()),
    };
  });
