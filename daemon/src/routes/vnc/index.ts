// /ws/vnc/{source}: a WebSocket-to-TCP bridge to the VNC server of a source's computer, for the
// dashboard's VNC viewer (noVNC). It connects only to the vnc_ip:vnc_port configured on that
// source (never to a host the client names), relays only once that server has greeted as a VNC
// server (bridge.ts), and then passes bytes both ways untouched (the RFB protocol, its
// authentication included, is between noVNC and the server). Pages of other sites are refused
// before the upgrade, as for every WebSocket (src/http/cross-site.ts).
import { connect } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { lookup } from '../../config/model.js';
import { NoMediaHostError } from '../../errors.js';
import { DEFAULT_VNC_PORT } from '../../schema/constants.js';
import { errors, nameParams, upgradeRequired, webSocket } from '../shared.js';
import {
  bridge,
  CLOSE_NO_GREETING,
  CLOSE_NOT_VNC,
  CLOSE_TOO_EARLY,
  CLOSE_UNREACHABLE,
} from './bridge.js';
import { GREETING_TIMEOUT_MS, MAX_EARLY_BYTES } from './greeting.js';

const vncRoutes: FastifyPluginAsync = async (fastify) => {
  const target = (request: FastifyRequest<{ Params: { name: string } }>) => {
    const source = lookup(fastify.configStore.config, 'source', request.params.name);
    if (!source.vnc_ip) throw new NoMediaHostError(source.name);
    return { host: source.vnc_ip, port: source.vnc_port ?? DEFAULT_VNC_PORT };
  };

  fastify.get<{ Params: { name: string } }>(
    '/ws/vnc/:name',
    {
      // Checked before the upgrade: a refused request gets its HTTP error, not a socket (pages
      // of other sites are refused for every WebSocket, src/http/cross-site.ts).
      preHandler: async (request) => {
        target(request);
      },
      ...webSocket((socket, request) => {
        const { host, port } = target(request as FastifyRequest<{ Params: { name: string } }>);
        const { name } = (request as FastifyRequest<{ Params: { name: string } }>).params;
        bridge(socket, connect({ host, port }), {
          source: name,
          where: `${host.includes(':') ? `[${host}]` : host}:${port}`,
          refused: (message) => fastify.refusals.count('vnc_not_rfb', message),
        });
      }),
      schema: {
        tags: ['Sources'],
        operationId: 'sourceDesktop',
        summary: "The desktop of a source's computer over VNC (WebSocket)",
        description:
          "Upgrade to a WebSocket: the daemon connects to the source's vnc_ip:vnc_port (TCP) and " +
          'passes bytes both ways untouched (binary messages), for a VNC client in the browser ' +
          "such as the dashboard's viewer (noVNC). Only the VNC host configured on the source is " +
          'ever reached, and nothing is relayed either way until it has greeted with an RFB ' +
          'protocol version (RFC 6143 7.1.1, "RFB 003.008\\n"); what the client sends before ' +
          `waits (at most ${MAX_EARLY_BYTES} bytes). 404 for an unknown source, 409 when it has ` +
          'no vnc_ip, 403 from a page of another site. The socket closes with a reason: code ' +
          `${CLOSE_UNREACHABLE} when the VNC server cannot be reached, ${CLOSE_NOT_VNC} when it ` +
          `greets with anything else (not a VNC server), ${CLOSE_NO_GREETING} when it does not ` +
          `connect and greet within ${GREETING_TIMEOUT_MS / 1000} s, ${CLOSE_TOO_EARLY} when ` +
          `the client sends more than ${MAX_EARLY_BYTES} bytes before the greeting. A plain GET ` +
          'answers 426 Upgrade Required.',
        params: nameParams('source'),
        response: {
          101: { description: 'Switching protocols; binary messages carry the VNC (RFB) stream.' },
          ...errors(400, 403, 404, 409, 426),
        },
      },
    },
    upgradeRequired,
  );
};

export default vncRoutes;
