// Pieces every route plugin uses: error responses, the `true` answer, name parameters, and the
// plumbing of the WebSocket routes.
import type { SwaggerTransform } from '@fastify/swagger';
import type { WebSocket } from '@fastify/websocket';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UpgradeRequiredError } from '../errors.js';
import { ErrorResponse } from '../schema/problem.js';

const errorDescriptions = {
  400: 'Invalid input: the body names the field, the rule broken and the value given.',
  401: 'API_TOKEN is set and the request did not carry it.',
  403: "A change through GET from another site's page (Origin or Sec-Fetch-Site); the message names the method to use.",
  404: 'No entry with that name (or no such route).',
  409: 'Conflict: the name or config_id is taken, or the entry is still used (the body says by what).',
  412: 'If-Match names another version (a WebRTC session: another ICE session); nothing changed.',
  426: 'A WebSocket URL requested without upgrading: connect with a WebSocket client.',
  500: 'Unexpected failure; details are in the daemon log.',
  502: 'A device on the network could not be reached.',
  503: 'The change could not be saved to disk, so it was not made.',
} as const;

export type ErrorStatus = keyof typeof errorDescriptions;

/** Response schemas for the given error statuses, plus 401 and 500 which any route may answer. */
export function errors(...statuses: ErrorStatus[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of [...statuses, 401, 500] as ErrorStatus[]) {
    out[status] = Type.Ref(ErrorResponse, { description: errorDescriptions[status] });
  }
  return out;
}

/** The answer of setters and deletes. */
export const True = Type.Literal(true, { description: 'Always true: the change is saved.' });

export function nameParams(kind: string) {
  return Type.Object({
    name: Type.String({ description: `Name of the ${kind}.`, examples: ['Living Room'] }),
  });
}

/**
 * Route config that keeps a WebSocket route in the OpenAPI document: @fastify/websocket hides
 * them, and ours are part of the API.
 */
export const documentedWebSocket: { swaggerTransform: SwaggerTransform } = {
  swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, hide: false }, url }),
};

/**
 * Options of a WebSocket route: `handle` serves the upgraded connection; a plain request gets
 * the route's HTTP handler, `upgradeRequired`.
 */
export function webSocket(handle: (socket: WebSocket, request: FastifyRequest) => void) {
  return { config: documentedWebSocket, wsHandler: handle };
}

/** A WebSocket URL requested without the upgrade: 426 with `Upgrade: websocket`. */
export async function upgradeRequired(request: FastifyRequest, reply: FastifyReply) {
  reply.header('upgrade', 'websocket');
  throw new UpgradeRequiredError(request.url.split('?')[0] ?? request.url);
}

/**
 * Feeds a WebSocket JSON messages: `start(send)` sends what there is now and returns how to stop
 * sending later ones, which happens when the socket closes or fails. Nothing is sent to a socket
 * that is no longer open.
 */
export function feed(socket: WebSocket, start: (send: (message: object) => void) => () => void) {
  const stop = start((message) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  });
  socket.on('close', stop);
  socket.on('error', stop);
}
