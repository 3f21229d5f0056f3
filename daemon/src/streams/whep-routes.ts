// WHEP (WebRTC-HTTP Egress Protocol) signalling for listening to a sink in a browser:
// POST /api/whep/sink/{sink_id} (offer -> answer), PATCH and DELETE /api/whep/session/{id},
// GET /api/whep/stats/{session_id}. Bodies are SDP text, not JSON.
import type { IncomingHttpHeaders } from 'node:http';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../errors.js';
import { errors } from '../routes/shared.js';
import { ErrorResponse } from '../schema/problem.js';
import type { Sink } from '../schema/sink.js';
import { WhepSessionStats } from './schema.js';

/** The largest offer or candidate fragment read (browsers' offers are a few kilobytes). */
export const WHEP_BODY_LIMIT = 64 * 1024;

const SinkParams = Type.Object({
  sink_id: Type.String({
    minLength: 1,
    maxLength: 128,
    description: "The sink's config_id (or its name).",
    examples: ['0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11'],
  }),
});
const SessionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The session id (Location).' }),
});
const StatsParams = Type.Object({
  session_id: Type.String({ minLength: 1, maxLength: 64, description: 'The session id.' }),
});
const OfferQuery = Type.Object({
  client: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Who listens, for "one session per client": a new offer from the same address with ' +
        'the same client (default: its User-Agent) replaces that client’s session of the sink.',
    }),
  ),
});

/** The request's media type without parameters, lower case ('' when absent). */
function mediaType(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function requireType(request: FastifyRequest, wanted: string): string {
  const type = mediaType(request.headers);
  if (type !== wanted || typeof request.body !== 'string') {
    throw new UnsupportedMediaTypeError(type || '(none)', wanted);
  }
  return request.body;
}

/** RFC 8842 Link headers for the sink's ICE servers (WHEP clients read them). */
function iceLinks(sink: Sink): string[] {
  return sink.webrtc.ice_servers.flatMap((server) => {
    const urls = Array.isArray(server.urls) ? server.urls : [server.urls];
    const auth =
      server.username !== undefined
        ? `; username="${server.username}"; credential="${server.credential ?? ''}"; credential-type="password"`
        : '';
    return urls.map((url) => `<${url}>; rel="ice-server"${auth}`);
  });
}

const sdp = (description: string) => ({
  description,
  content: { 'application/sdp': { schema: Type.String() } },
});

const whepRoutes: FastifyPluginAsync = async (fastify) => {
  const whep = fastify.whep;
  // Every body of these routes is read as text; the handlers check its type.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: WHEP_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  const tags = ['Streaming'];

  fastify.post<{ Params: { sink_id: string }; Querystring: { client?: string } }>(
    '/api/whep/sink/:sink_id',
    {
      schema: {
        tags,
        operationId: 'whepOffer',
        summary: 'Listen to a sink over WebRTC (WHEP offer)',
        description:
          "The browser's recvonly SDP offer in, the engine's sendonly answer out, with every " +
          'server candidate (no trickle needed): Opus, 48 kHz stereo, 20 ms, at the sink’s ' +
          'webrtc.profile. Munge the offer’s Opus fmtp with stereo=1 (Chromium offers mono); ' +
          'the answer carries stereo=1; sprop-stereo=1. ICE servers come as Link headers.',
        params: SinkParams,
        querystring: OfferQuery,
        body: Type.String({ description: 'application/sdp: the offer.' }),
        response: {
          201: {
            ...sdp('The answer; Location is the session, ETag its version.'),
            headers: Type.Object({ location: Type.String(), etag: Type.String() }),
          },
          ...errors(400, 404, 503),
          415: Type.Ref(ErrorResponse, { description: 'The body is not application/sdp.' }),
        },
      },
    },
    async (request, reply) => {
      const offer = requireType(request, 'application/sdp');
      const client = `${request.ip} ${request.query.client ?? request.headers['user-agent'] ?? ''}`;
      const answer = whep.offer(request.params.sink_id, offer, client);
      const links = iceLinks(answer.sink);
      if (links.length > 0) reply.header('link', links.join(', '));
      return reply
        .code(201)
        .header('location', `/api/whep/session/${answer.sessionId}`)
        .header('etag', `"${answer.etag}"`)
        .header('cache-control', 'no-store')
        .type('application/sdp')
        .send(answer.answerSdp);
    },
  );

  fastify.patch<{ Params: { id: string } }>(
    '/api/whep/session/:id',
    {
      schema: {
        tags,
        operationId: 'whepPatch',
        summary: 'Trickle ICE candidates to a WebRTC session, or restart its ICE',
        description:
          'application/trickle-ice-sdpfrag (RFC 9725 section 4.3): a=candidate lines the ' +
          'browser found after its offer (204), or, with new a=ice-ufrag and a=ice-pwd, an ICE ' +
          'restart (200: the server’s new credentials and candidates, and a new ETag). ' +
          'If-Match must be the latest ETag or * (a restart sends *); another ETag is 412 and ' +
          'changes nothing. Candidates the engine cannot read answer 400 with the line.',
        params: SessionParams,
        headers: Type.Object({
          'if-match': Type.Optional(
            Type.String({ description: 'The session’s latest ETag, or * (an ICE restart).' }),
          ),
        }),
        body: Type.String({ description: 'application/trickle-ice-sdpfrag.' }),
        response: {
          200: {
            description: 'ICE restarted: the server’s new ice-ufrag, ice-pwd and candidates.',
            content: { 'application/trickle-ice-sdpfrag': { schema: Type.String() } },
            headers: Type.Object({ etag: Type.String() }),
          },
          204: Type.Null({ description: 'Candidates added.' }),
          ...errors(400, 404, 412),
          415: Type.Ref(ErrorResponse, {
            description: 'The body is not application/trickle-ice-sdpfrag.',
          }),
        },
      },
    },
    async (request, reply) => {
      const frag = requireType(request, 'application/trickle-ice-sdpfrag');
      const ifMatch = request.headers['if-match'];
      const patched = whep.patch(request.params.id, frag, ifMatch);
      reply.header('etag', `"${patched.etag}"`);
      if (patched.fragment === null) return reply.code(204).send();
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .type('application/trickle-ice-sdpfrag')
        .send(patched.fragment);
    },
  );

  fastify.delete<{ Params: { id: string } }>(
    '/api/whep/session/:id',
    {
      schema: {
        tags,
        operationId: 'whepClose',
        summary: 'End a WebRTC session',
        params: SessionParams,
        response: {
          200: Type.Object({ closed: Type.Literal(true) }, { description: 'Closed and freed.' }),
          ...errors(404),
        },
      },
    },
    async (request) => {
      whep.close(request.params.id);
      return { closed: true as const };
    },
  );

  fastify.get<{ Params: { session_id: string } }>(
    '/api/whep/stats/:session_id',
    {
      schema: {
        tags,
        operationId: 'whepStats',
        summary: 'Statistics of a WebRTC session',
        description:
          'Packets and bytes sent; loss, jitter and round-trip time from the listener’s RTCP ' +
          'receiver reports; its address; how long the session has lasted.',
        params: StatsParams,
        response: { 200: WhepSessionStats, ...errors(404) },
      },
    },
    async (request) => whep.session(request.params.session_id),
  );
};

export default whepRoutes;
