// The realistic house of issue 31 (e2e/compact.test.ts, and the UI guide's screenshots,
// scripts/screenshots.ts): 8 sources (7 and the group Computers), 10 sinks (9 and the group
// Downstairs), 8 routes, and a tone playing from the Desk PC and the TV so meters move.
import type { Socket } from 'node:dgram';
import { receivers, sendScream } from './audio';
import type { Running } from './dashboard';

export const REALISTIC_SOURCES = [
  'Desk PC',
  'Laptop',
  'TV',
  'Console',
  'Turntable',
  'Phone',
  'Tablet',
];
export const REALISTIC_SINKS = [
  'Kitchen',
  'Living',
  'Bedroom',
  'Bath',
  'Office',
  'Patio',
  'Hall',
  'Garage',
  'Den',
];
/** Each source's address: 127.0.3.(its place in REALISTIC_SOURCES + 1). */
export const realisticSourceIp = (name: string) => `127.0.3.${REALISTIC_SOURCES.indexOf(name) + 1}`;

export interface RealisticHouse {
  /** The engine's Scream port the sources send to. */
  readonly screamPort: number;
  /** Stops the tone and closes the sinks' sockets. */
  stop(): void;
  /** Stops only the tone (another sound may take its place). */
  stopTone(): void;
}

/** Adds the house through the API and starts the tone. */
export async function realisticHouse(run: Running): Promise<RealisticHouse> {
  const sockets: Socket[] = await receivers(REALISTIC_SINKS.length);
  for (const [i, name] of REALISTIC_SINKS.entries()) {
    const port = (sockets[i]!.address() as { port: number }).port;
    await run.api('POST', '/sinks', { name, ip: '127.0.0.1', port });
  }
  await run.api('POST', '/sinks', {
    name: 'Downstairs',
    is_group: true,
    group_members: ['Kitchen', 'Living'],
  });
  for (const name of REALISTIC_SOURCES) {
    await run.api('POST', '/sources', { name, ip: realisticSourceIp(name) });
  }
  await run.api('POST', '/sources', {
    name: 'Computers',
    is_group: true,
    group_members: ['Desk PC', 'Laptop'],
  });
  const routes: [string, string][] = [
    ['Desk PC', 'Office'],
    ['Laptop', 'Bedroom'],
    ['TV', 'Downstairs'],
    ['Console', 'Den'],
    ['Turntable', 'Patio'],
    ['Phone', 'Bath'],
    ['Tablet', 'Hall'],
    ['Computers', 'Garage'],
  ];
  for (const [source, sink] of routes) {
    await run.api('POST', '/routes', { name: `${source} to ${sink}`, source, sink });
  }
  const stats = (await run.api('GET', '/api/stats')).body as {
    engine: { ports: { scream: number[] } };
  };
  const screamPort = stats.engine.ports.scream[0]!;
  let stopTone = await sendScream(screamPort, [
    realisticSourceIp('Desk PC'),
    realisticSourceIp('TV'),
  ]);
  return {
    screamPort,
    stopTone() {
      stopTone();
      stopTone = () => {};
    },
    stop() {
      stopTone();
      stopTone = () => {};
      for (const socket of sockets) socket.close();
    },
  };
}
