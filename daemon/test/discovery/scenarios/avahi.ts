// Avahi inside the namespace: a private D-Bus system bus (avahi-browse and avahi-publish talk
// to avahi-daemon over it) and avahi-daemon on loopback, its runtime directory on a tmpfs of
// this mount namespace so it never meets the machine's own Avahi.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Lab, type Peer, waitFor } from './lab.js';

export interface Avahi {
  readonly env: Record<string, string>;
  readonly daemon: Peer;
  /** `avahi-browse -rtp TYPE`: the resolved entries. */
  browse(type: string): Promise<BrowsedEntry[]>;
  publish(args: string[]): Peer;
}

export interface BrowsedEntry {
  readonly name: string;
  readonly type: string;
  readonly host: string;
  readonly address: string;
  readonly port: number;
  readonly txt: Record<string, string>;
}

/** avahi-browse -p escapes names: "\032" is a space, "\040" a "(". */
const unescapeName = (s: string) =>
  s.replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d)));

/** avahi-daemon.conf [server] settings beyond the defaults below (`cache-entries-max`, ...). */
export async function startAvahi(
  lab: Lab,
  server: Record<string, string | number> = {},
): Promise<Avahi> {
  const dir = lab.dir('tributary-avahi-');
  if (!existsSync('/run/avahi-daemon')) mkdirSync('/run/avahi-daemon', { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', '/run/avahi-daemon']);
  const socket = join(dir, 'system_bus_socket');
  writeFileSync(
    join(dir, 'bus.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
`,
  );
  writeFileSync(
    join(dir, 'avahi-daemon.conf'),
    [
      '[server]',
      'use-ipv4=yes',
      'use-ipv6=no',
      'allow-interfaces=lo',
      'enable-dbus=yes',
      'ratelimit-interval-usec=0',
      ...Object.entries(server).map(([k, v]) => `${k}=${v}`),
      '[publish]',
      'publish-hinfo=no',
      'publish-workstation=no',
      '',
    ].join('\n'),
  );
  const bus = lab.spawn('dbus-daemon', [
    `--config-file=${join(dir, 'bus.conf')}`,
    '--nofork',
    '--nopidfile',
  ]);
  await waitFor(
    'the D-Bus socket',
    () => existsSync(socket) || undefined,
    5000,
    () => bus.output(),
  );
  const env = { DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${socket}` };
  const daemon = lab.spawn(
    'avahi-daemon',
    [
      '-f',
      join(dir, 'avahi-daemon.conf'),
      '--no-drop-root',
      '--no-chroot',
      '--no-rlimits',
      '--no-proc-title',
    ],
    env,
  );
  await waitFor(
    'avahi-daemon',
    () => /Server startup complete/.test(daemon.output()) || undefined,
    10_000,
    () => daemon.output(),
  );
  return {
    env,
    daemon,
    async browse(type) {
      const p = lab.spawn('avahi-browse', ['-rtp', type], env);
      await p.exited();
      return p
        .output()
        .split('\n')
        .filter((l) => l.startsWith('=;'))
        .map((l) => {
          // =;iface;IPv4;name;type;domain;host;address;port;"k=v" "k=v"
          const f = l.split(';');
          const txt: Record<string, string> = {};
          for (const m of f
            .slice(9)
            .join(';')
            .matchAll(/"([^"]*)"/g)) {
            const [k, ...v] = m[1]!.split('=');
            txt[k!] = v.join('=');
          }
          return {
            name: unescapeName(f[3]!),
            type: f[4]!,
            host: f[6]!,
            address: f[7]!,
            port: Number(f[8]),
            txt,
          };
        });
    },
    publish(args) {
      return lab.spawn('avahi-publish', args, env);
    },
  };
}
