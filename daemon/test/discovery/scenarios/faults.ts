// Sockets that fail do not take the daemon down: SAP's and mDNS's ports held by another program
// (EADDRINUSE) and no multicast route (announcements cannot be sent) are reported in
// /api/discovery and /api/stats while the API and the audio engine go on, and discovery comes
// back by itself once the ports are free and the route is there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import type { DiscoveryStatus } from '../../../src/schema/discovery-status.js';
import { get, waitFor, withLab } from './lab.js';

const config = `
sinks:
  - name: Garden
    ip: 239.255.77.1
    port: 5004
    protocol: rtp
`;

/** Holds a UDP port without SO_REUSEADDR, as a program that wants it alone would. */
async function hold(port: number): Promise<Socket> {
  const socket = createSocket({ type: 'udp4', reuseAddr: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, () => resolve());
  });
  return socket;
}

export default () =>
  withLab(async (lab) => {
    const held = [await hold(9875), await hold(5353)];
    execFileSync('ip', ['route', 'del', '224.0.0.0/4', 'dev', 'lo']);
    const daemon = await lab.daemon(config);
    const status = () => get<DiscoveryStatus>(daemon, '/api/discovery');

    const failed = await waitFor(
      'the failures to show',
      async () => {
        const s = await status();
        return s.sap.state === 'failed' && s.mdns.state === 'failed' ? s : undefined;
      },
      10_000,
      () => daemon.output(),
    );
    assert.match(failed.sap.error ?? '', /cannot listen on UDP port 9875: .*EADDRINUSE/);
    assert.match(failed.mdns.error ?? '', /EADDRINUSE/);
    const stats = await get<{ discovery: DiscoveryStatus; engine: { state: string } }>(
      daemon,
      '/api/stats',
    );
    assert.equal(stats.discovery.sap.state, 'failed', '/api/stats shows it too');
    assert.equal(stats.engine.state, 'running', 'the engine runs on');
    const unsent = await waitFor(
      'a failed announcement',
      async () => {
        const s = await status();
        return s.sap.announcer.send_errors > 0 ? s : undefined;
      },
      10_000,
    );
    assert.match(unsent.sap.announcer.last_error ?? '', /ENETUNREACH/);
    assert.equal(unsent.sap.announcer.state, 'running');
    assert.match(daemon.output(), /SAP listener not started: cannot listen on UDP port 9875/);

    // The ports come free and the route comes back: discovery recovers without a restart.
    for (const s of held) s.close();
    execFileSync('ip', ['route', 'add', '224.0.0.0/4', 'dev', 'lo']);
    const t0 = performance.now();
    const back = await waitFor(
      'discovery to come back',
      async () => {
        const s = await status();
        return s.sap.state === 'running' && s.mdns.state === 'running' && s.mdns.hostname
          ? s
          : undefined;
      },
      30_000,
      () => daemon.output(),
    );
    const recoverMs = performance.now() - t0;
    assert.ok(
      back.sap.groups.every((g) => g.joined),
      JSON.stringify(back.sap.groups),
    );
    const sent = back.sap.announcer.sent;
    await waitFor(
      'announcements to go out',
      async () => (await status()).sap.announcer.sent > sent || undefined,
      12_000,
    );
    assert.doesNotMatch(daemon.output(), /Uncaught|unhandled/i);
    return {
      recovered_after_ms: Math.round(recoverMs),
      send_errors: unsent.sap.announcer.send_errors,
    };
  });
