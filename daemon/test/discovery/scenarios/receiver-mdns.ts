// `tributary receive` (native/receive, the built program) advertising itself over mDNS to the
// real daemon with auto-add on: it becomes a sink with the config_id the receiver keeps in
// XDG_STATE_HOME, its port and format; a change made in Tributary is not sent (it has no settings
// API) and fails nothing; its goodbye on SIGTERM takes the sink away; started again (without
// -n: named after the host), it comes back with the same config_id, and Avahi resolves it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { receiverProgram } from '../../../src/commands/receive.js';
import { startPulse } from '../../commands/pulse-server.js';
import { startAvahi } from './avahi.js';
import { get, type SinkView, waitFor, withLab } from './lab.js';

const PORT = 4020;
const config = `
sap:
  enabled: false
mdns:
  auto_add_devices: true
  cleanup_timeout: 4
  browse_interval: 1
  sync_interval: 1
`;

interface Sink extends SinkView {
  protocol: string;
  bit_depth: number;
  sample_rate: number;
  channels: number;
  channel_layout: string;
}
interface Discovery {
  mdns: {
    devices: { id: string; name: string; usable: boolean; reason: string | null }[];
    sync: { errors: number; last_error: string | null; not_sent: number; to_devices: number };
  };
}

export default () =>
  withLab(async (lab) => {
    const program = receiverProgram();
    assert.ok(program, 'tributary-receive is built');
    const avahi = await startAvahi(lab);
    const server = await startPulse({ after: (fn) => lab.atEnd(fn) }, 'rx-mdns');
    const state = lab.dir('tributary-rx-state-');
    const daemon = await lab.daemon(config, { ENGINE: 'off' });
    const mine = async () =>
      (await get<Sink[]>(daemon, '/sinks')).find((s) => s.auto_added?.via === 'mdns');
    const receive = (args: string[]) =>
      lab.spawn(program, ['-u', '-p', String(PORT), ...args], {
        PULSE_SERVER: server,
        XDG_STATE_HOME: state,
      });

    let rx = receive(['-n', 'Den Pi']);
    let t0 = performance.now();
    const added = await waitFor(
      'the receiver to become a sink',
      mine,
      15_000,
      () => `${rx.output()}\n${daemon.output()}`,
    );
    const appearMs = performance.now() - t0;
    const idFile = join(state, 'tributary', `receiver-id-${PORT}`);
    const kept = readFileSync(idFile, 'utf8').trim();
    const discovery = await get<Discovery>(daemon, '/api/discovery');

    // Renamed in Tributary: the receiver has no settings API; nothing is sent, nothing fails.
    const renamed = await daemon.call('PUT', `/sinks/${added.name}`, { name: 'Den' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    await sleep(3500); // three comparisons
    const sync = (await get<Discovery>(daemon, '/api/discovery')).mdns.sync;

    // SIGTERM: the receiver's goodbye takes the auto-added sink away.
    t0 = performance.now();
    const code = await rx.stop('SIGTERM');
    await waitFor(
      'the sink to go with the receiver',
      async () => ((await mine()) ? undefined : true),
      10_000,
      () => daemon.output(),
    );
    const goneMs = performance.now() - t0;
    const firstOutput = rx.output();

    // Started again, without -n: the same config_id, named after the host.
    rx = receive([]);
    t0 = performance.now();
    const again = await waitFor('the receiver again', mine, 15_000, () => rx.output());
    const againMs = performance.now() - t0;
    const browsed = await waitFor(
      'avahi-browse to resolve the receiver',
      async () => (await avahi.browse('_tributary-sink._udp')).find((e) => e.port === PORT),
      15_000,
      () => rx.output(),
    );
    await rx.stop('SIGTERM');
    return {
      appear_ms: Math.round(appearMs),
      removed_after_sigterm_ms: Math.round(goneMs),
      reappear_ms: Math.round(againMs),
      exit_code: code,
      id_file: kept,
      first: added,
      device: discovery.mdns.devices.find((d) => d.id === added.config_id) ?? null,
      sync,
      first_output: firstOutput,
      second: again,
      avahi: browsed,
      hostname: hostname(),
    };
  });
