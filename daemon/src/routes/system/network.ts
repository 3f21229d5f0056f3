import { hostname, networkInterfaces } from 'node:os';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../shared.js';

export const NetworkInfo = Type.Object(
  {
    hostname: Type.String({ description: "The server's host name.", examples: ['living-room-pi'] }),
    addresses: Type.Array(
      Type.Object(
        {
          interface: Type.String({ examples: ['eth0'] }),
          family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
          address: Type.String({ examples: ['192.168.1.10'] }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Addresses of this machine other devices can reach (loopback and link-local IPv6 left ' +
          'out), IPv4 first.',
      },
    ),
    engine_bind: Type.Union([Type.String(), Type.Null()], {
      description:
        'ENGINE_BIND when it names one address (senders must use it); null when the engine ' +
        'listens on every address or is off.',
      examples: [null],
    }),
  },
  { title: 'NetworkInfo', additionalProperties: false },
);
export type NetworkInfo = Static<typeof NetworkInfo>;

export interface NetworkRoutesOptions {
  /** ENGINE_BIND, or null when the engine is off. */
  readonly engineBind: string | null;
}

/** The addresses of this machine, as the dashboard's first-run instructions need them. */
export function networkInfo(engineBind: string | null): NetworkInfo {
  const addresses = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
    (list ?? [])
      .filter((i) => !i.internal && !(i.family === 'IPv6' && i.address.startsWith('fe80')))
      .map((i) => ({ interface: name, family: i.family, address: i.address })),
  );
  addresses.sort((a, b) => (a.family === b.family ? 0 : a.family === 'IPv4' ? -1 : 1));
  const wildcard = engineBind === null || engineBind === '0.0.0.0' || engineBind === '::';
  return { hostname: hostname(), addresses, engine_bind: wildcard ? null : engineBind };
}

/** GET /api/network: where senders should send their audio. */
const network: FastifyPluginAsync<NetworkRoutesOptions> = async (fastify, options) => {
  fastify.get(
    '/api/network',
    {
      schema: {
        tags: ['System'],
        operationId: 'getNetwork',
        summary: "This machine's network addresses",
        description:
          'Host name and addresses of the server, and the address the audio engine is bound to ' +
          'when it is bound to one: what a sender needs to reach it (the ports are in ' +
          'GET /api/stats, engine.ports).',
        response: { 200: NetworkInfo, ...errors() },
      },
    },
    async () => networkInfo(options.engineBind),
  );
};

export default network;
