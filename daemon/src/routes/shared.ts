// Pieces every route plugin uses: error responses, the `true` answer, name parameters, and the
// plumbing of the WebSocket routes.
import type { SwaggerTransform } from '@fastify/swagger';
import type { WebSocket } from '@fastify/websocket';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UpgradeRequiredError } from '../errors.js';
import { nameRules } from '../schema/common.js';
import { ErrorResponse } from '../schema/problem.js';
import type { FeedMessage, FeedSocket } from '../services/feeds.js';

const errorDescriptions = {
  400: 'Invalid input (body or URL, a name breaking the rule of names included): the body names the field, the rule broken and the value given.',
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

/**
 * The `{name}` of a URL: a name (with the rule of names: a broken one is a 400 saying which
 * part) or, for kinds that have one, the entry's config_id, which reaches an entry whose name
 * came from a file written before the rule and cannot be put in a URL.
 */
export function nameParams(kind: string, byConfigId = true) {
  const either = byConfigId
    ? ` or its config_id (a name is matched first). The config_id reaches an entry whose name ` +
      'a hand-written config.yaml gave it against the rule, to rename or delete it.'
    : '.';
  return Type.Object({
    name: Type.String({
      ...nameRules,
      description: `Name of the ${kind}${either}`,
      examples: ['Living Room'],
    }),
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
 * sending later ones, which happens when the socket closes or fails; `send` takes a message or a
 * function making it (called only if it is sent). `send` is the feed's
 * (`fastify.feeds.open`): nothing goes to a socket that is no longer open, and a client that
 * does not read is closed or skipped (src/services/feeds.ts).
 */
export function feed(
  { socket, send }: FeedSocket,
  start: (send: (message: FeedMessage) => void) => () => void,
) {
  const stop = start(send);
  socket.on('close', stop);
  socket.on('error', stop);
}
