// GET /stream/{ip}/ (and without the slash): the MP3 stream of the sink at that address, on the
// HTTPS port and, for players that cannot trust a self-signed certificate, on the plain HTTP
// port too (http/redirect.ts hands it these requests and redirects every other).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { NoStreamError, StreamUnavailableError } from '../errors.js';
import { ErrorResponse } from '../schema/problem.js';
import { HubFull } from './mp3-hub.js';

const Params = Type.Object({
  ip: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The ip of a real sink (as configured).',
    examples: ['192.168.1.50'],
  }),
});

const Query = Type.Object({
  token: Type.Optional(
    Type.String({
      maxLength: 1024,
      description:
        'API_TOKEN, for players that cannot send a header or cookie (the header and cookie work too).',
    }),
  ),
});

const error = (description: string) => Type.Ref(ErrorResponse, { description });

const mp3Routes: FastifyPluginAsync = async (fastify) => {
  const streams = fastify.streams;
  fastify.get<{ Params: { ip: string }; Querystring: { token?: string } }>(
    '/stream/:ip',
    {
      config: { tokenInQuery: true },
      // A HEAD would start an encoder for nothing.
      exposeHeadRoute: false,
      schema: {
        tags: ['Streaming'],
        operationId: 'getMp3Stream',
        summary: 'MP3 stream of a sink',
        description:
          "A continuous MP3 stream (audio/mpeg, chunked, no-cache) of the sink's mix: constant " +
          'bit rate (mp3.bitrate, default 320 kbit/s), stereo (a multichannel sink down-mixed, ' +
          'never clipping; mono on both), at the sink rate (48 or 44.1 kHz above 48 kHz). Starts with the last second ' +
          'of frames; silence while nothing plays. The trailing slash is optional. When ' +
          'several sinks share the ip, the one with the lowest port. Served on the plain HTTP ' +
          'port (HTTP_PORT) too, with the same rules. With API_TOKEN set, the token comes as ' +
          'usual or as `?token=` in the URL.',
        params: Params,
        querystring: Query,
        response: {
          200: {
            description: 'MPEG-1 Layer III frames, until the client disconnects.',
            content: { 'audio/mpeg': { schema: Type.String({ format: 'binary' }) } },
          },
          401: error('API_TOKEN is set and the request did not carry it.'),
          404: error('No real, enabled sink has that ip (groups have none).'),
          500: error('Unexpected failure; details are in the daemon log.'),
          503: error('The stream has mp3.max_listeners listeners, or the audio engine is off.'),
        },
      },
    },
    async (request, reply) => {
      const sink = streams.find(request.params.ip);
      if (!sink) throw new NoStreamError(request.params.ip);
      const hub = streams.hub(sink);
      try {
        hub.admit();
      } catch (err) {
        if (err instanceof HubFull) throw new StreamUnavailableError(err.message);
        throw new StreamUnavailableError(`the stream cannot start: ${(err as Error).message}`);
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'audio/mpeg',
        'cache-control': 'no-cache, no-store',
        'x-content-type-options': 'nosniff',
        'icy-name': encodeURIComponent(sink.name),
        'icy-br': String(sink.mp3.bitrate),
      });
      hub.add(res);
    },
  );
};

export default mp3Routes;
