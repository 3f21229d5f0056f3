// /ws/vnc/{source}: a WebSocket-to-TCP bridge to the VNC server of a source's computer, for the
// dashboard's VNC viewer (noVNC). It connects only to the vnc_ip:vnc_port configured on that
// source (never to a host the client names), refuses pages of other sites, and passes bytes both
// ways untouched (the RFB protocol, its authentication included, is between noVNC and the server).
import { connect, type Socket } from 'node:net';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { lookup } from '../../config/model.js';
import { CrossSiteSocketError, NoMediaHostError } from '../../errors.js';
import { crossSiteEvidence } from '../../http/cross-site.js';
import { DEFAULT_VNC_PORT } from '../../schema/constants.js';
import { errors, nameParams, upgradeRequired, webSocket } from '../shared.js';

/** Bytes queued towards a slow browser before the TCP side is paused. */
const HIGH_WATER = 1 << 20;
/** WebSocket close codes: the server could not be reached / the desktop closed. */
export const CLOSE_UNREACHABLE = 4502;
export const CLOSE_ENDED = 1000;

function bridge(socket: WebSocket, tcp: Socket, where: string) {
  let open = false;
  tcp.on('connect', () => {
    open = true;
    tcp.setNoDelay(true);
  });
  tcp.on('data', (chunk) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(chunk, { binary: true });
    if (socket.bufferedAmount > HIGH_WATER) {
      tcp.pause();
      const resume = setInterval(() => {
        if (socket.readyState !== socket.OPEN || socket.bufferedAmount < HIGH_WATER / 4) {
          clearInterval(resume);
          tcp.resume();
        }
      }, 10);
    }
  });
  tcp.on('error', (err) => {
    if (socket.readyState !== socket.OPEN) return;
    const why = open ? `connection to ${where} failed` : `cannot reach ${where}`;
    // A close reason is at most 123 bytes.
    socket.close(CLOSE_UNREACHABLE, `${why}: ${err.message}`.slice(0, 120));
  });
  tcp.on('close', () => {
    if (socket.readyState === socket.OPEN)
      socket.close(CLOSE_ENDED, `${where} closed the connection`);
  });
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunks = Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)];
    for (const c of chunks) tcp.write(c);
  });
  socket.on('close', () => tcp.destroy());
  socket.on('error', () => tcp.destroy());
}

const vncRoutes: FastifyPluginAsync = async (fastify) => {
  const target = (request: FastifyRequest<{ Params: { name: string } }>) => {
    const source = lookup(fastify.configStore.config, 'source', request.params.name);
    if (!source.vnc_ip) throw new NoMediaHostError(source.name);
    return { host: source.vnc_ip, port: source.vnc_port ?? DEFAULT_VNC_PORT };
  };

  fastify.get<{ Params: { name: string } }>(
    '/ws/vnc/:name',
    {
      // Checked before the upgrade: a refused request gets its HTTP error, not a socket.
      preHandler: async (request) => {
        const evidence = crossSiteEvidence(request);
        if (evidence) throw new CrossSiteSocketError(evidence);
        target(request);
      },
      ...webSocket((socket, request) => {
        const { host, port } = target(request as FastifyRequest<{ Params: { name: string } }>);
        const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
        bridge(socket, connect({ host, port }), where);
      }),
      schema: {
        tags: ['Sources'],
        operationId: 'sourceDesktop',
        summary: "The desktop of a source's computer over VNC (WebSocket)",
        description:
          "Upgrade to a WebSocket: the daemon connects to the source's vnc_ip:vnc_port (TCP) and " +
          'passes bytes both ways untouched (binary messages), for a VNC client in the browser ' +
          "such as the dashboard's viewer (noVNC). Only the VNC host configured on the source is " +
          'ever reached. 404 for an unknown source, 409 when it has no vnc_ip, 403 from a page ' +
          `of another site. If the VNC server cannot be reached the socket closes with code ${CLOSE_UNREACHABLE} ` +
          'and the reason. A plain GET answers 426 Upgrade Required.',
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
