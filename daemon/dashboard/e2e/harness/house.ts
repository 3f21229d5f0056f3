// The large house of the bench and of e2e/large-house.test.ts (issue 31): 16 sinks (UDP
// receivers on loopback), 32 sources and 64 routes, every source on two sinks.
import type { Socket } from 'node:dgram';
import type { Running } from './dashboard';

export const HOUSE = { sources: 32, sinks: 16, routes: 64 } as const;

/** Source i+1 plays on Room (i % 16)+1 (route i+1) and on Room ((i+5) % 16)+1 (route i+33). */
export function houseRoutes(): { name: string; source: string; sink: string }[] {
  return Array.from({ length: HOUSE.routes }, (_, i) => ({
    name: `Route ${i + 1}`,
    source: `Source ${(i % HOUSE.sources) + 1}`,
    sink: `Room ${(((i % HOUSE.sources) + (i < HOUSE.sources ? 0 : 5)) % HOUSE.sinks) + 1}`,
  }));
}

/** Adds the house through the API; `receivers` are the sinks' sockets (HOUSE.sinks of them). */
export async function populate(run: Running, receivers: readonly Socket[]): Promise<void> {
  for (let i = 0; i < HOUSE.sinks; i++) {
    const port = receivers[i]!.address().port;
    await run.api('POST', '/sinks', { name: `Room ${i + 1}`, ip: '127.0.0.1', port });
  }
  for (let i = 0; i < HOUSE.sources; i++) {
    await run.api('POST', '/sources', { name: `Source ${i + 1}`, ip: `127.0.1.${i + 1}` });
  }
  for (const route of houseRoutes()) await run.api('POST', '/routes', route);
}
