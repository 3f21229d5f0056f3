// The house the soak runs: its sinks (each a UDP receiver of the soak's on its own loopback
// address), sources (one per sender), routes, and the daemon's first config.yaml. The soak owns
// the network namespace, so the addresses and ports are fixed.
import { ANNOUNCED, SENDERS } from './schedule.mjs';

/** Ports of the daemon in the namespace. */
export const API_PORT = 8443;
export const HTTP_PORT = 8080;
export const SCREAM_PORT = 4010;
/** The namespace's one interface besides loopback, for WebRTC (see bench-soak.mjs). */
export const WEBRTC_LINK = 'soak0';
export const WEBRTC_ADDRESS = '10.78.0.1';
/**
 * The SAP senders' RTP ports (RTP to 224.2.127.254, the SAP group's address, same_port=1). Not
 * 5004: the sinks' receivers hold 127.0.1.x:5004, and the engine cannot bind 0.0.0.0:5004 beside
 * them (a first run found each failed bind leaving a receiver thread behind).
 */
export const SAP_GROUP = '224.2.127.254';
export const sapPort = (i) => 5204 + 2 * i;
/** The port an announced sender (SAP or PulseAudio) sends its RTP to, on SAP_GROUP. */
export const announcedPort = (sender) => sapPort(ANNOUNCED.indexOf(sender));
export const rtpPort = (i) => 41_000 + 2 * i;

/**
 * Sinks by a key that stays while the soak renames them: the four monitored ones (one route
 * each, from their senders) and three spares the churn routes to, grouped, renames and empties.
 */
export const SINKS = [
  { key: 'kitchen', name: 'Kitchen', ip: '127.0.1.1', monitored: true },
  { key: 'office', name: 'Office', ip: '127.0.1.2', monitored: true },
  { key: 'bedroom', name: 'Bedroom', ip: '127.0.1.3', monitored: true },
  { key: 'garden', name: 'Garden', ip: '127.0.1.4', monitored: true },
  { key: 'spare-a', name: 'Hall', ip: '127.0.1.5', monitored: false },
  { key: 'spare-b', name: 'Attic', ip: '127.0.1.6', monitored: false },
  { key: 'spare-c', name: 'Cellar', ip: '127.0.1.7', monitored: false },
].map((s) => ({ ...s, port: 5004 }));

/** Where the machine's control stream goes (a Scream sender of the soak's to its own receiver). */
export const CONTROL = {
  key: 'control',
  ip: '127.0.3.1',
  port: 7000,
  raw: true,
  from: '127.0.3.2',
};

/** The group sink the churn edits (its members are spares). */
export const GROUP = { key: 'upstairs', name: 'Upstairs', members: ['spare-a', 'spare-b'] };

/** The source each sender plays into (the SAP senders: the group their sources are added to). */
export function sourceOf(sender) {
  return ANNOUNCED.includes(sender) ? 'SAP streams' : sender.id;
}

/** The sources in config.yaml: one per RTP and Scream sender, and the SAP group. */
export function sourcesYaml() {
  const lines = [];
  SENDERS.forEach((s, i) => {
    if (s.kind === 'rtp') lines.push(`  - name: ${s.id}`, '    rtp:', `      port: ${rtpPort(i)}`);
    if (s.kind === 'scream') lines.push(`  - name: ${s.id}`, `    ip: ${s.from}`);
  });
  lines.push('  - name: SAP streams', '    is_group: true');
  return lines.join('\n');
}

/** The routes at the start: each monitored sink plays its senders' source. */
export function monitoredRoutes() {
  const routes = [];
  for (const sink of SINKS.filter((s) => s.monitored)) {
    const source = SENDERS.find((s) => s.sink === sink.name);
    routes.push({ name: `to-${sink.key}`, source: sourceOf(source), sink: sink.key, volume: 1 });
  }
  return routes;
}

/** config.yaml at the start. */
export function initialConfigYaml() {
  const sinks = SINKS.map((s) =>
    [`  - name: ${s.name}`, `    ip: ${s.ip}`, `    port: ${s.port}`, '    protocol: rtp'].join(
      '\n',
    ),
  );
  sinks.push(
    [
      `  - name: ${GROUP.name}`,
      '    is_group: true',
      '    group_members:',
      ...GROUP.members.map((k) => `      - ${SINKS.find((s) => s.key === k).name}`),
    ].join('\n'),
  );
  const routes = monitoredRoutes().map((r) =>
    [
      `  - name: ${r.name}`,
      `    source: ${r.source}`,
      `    sink: ${SINKS.find((s) => s.key === r.sink).name}`,
    ].join('\n'),
  );
  return `sinks:
${sinks.join('\n')}
sources:
${sourcesYaml()}
routes:
${routes.join('\n')}
sap:
  listener:
    auto_add_sources: true
    cleanup_timeout: 60
    add_to_group: SAP streams
  announcer:
    enabled: false
`;
}
