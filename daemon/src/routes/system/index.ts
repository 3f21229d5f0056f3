import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CLOSE_TOO_SLOW, FEED_BACKLOG_BOUND } from '../../schema/feeds.js';
import { ConfigMessage } from '../../schema/files.js';
import { version } from '../../version.js';
import { errors, feed, upgradeRequired, webSocket } from '../shared.js';

const tags = ['System'];

/** /api: health, the OpenAPI document, the whole configuration; /ws/config: live configuration. */
const system: FastifyPluginAsyncTypebox = async (fastify) => {
  const store = fastify.configStore;

  fastify.get(
    '/api/health',
    {
      schema: {
        tags,
        operationId: 'health',
        summary: 'Health check',
        description: 'Answers while the daemon runs. Needs no token only when API_TOKEN is unset.',
        response: {
          200: Type.Object(
            {
              status: Type.Literal('ok'),
              version: Type.String({ description: 'The daemon version.', examples: ['0.1.0'] }),
            },
            { additionalProperties: false },
          ),
          ...errors(),
        },
      },
    },
    async () => ({ status: 'ok' as const, version }),
  );

  fastify.get(
    '/api/openapi.json',
    {
      schema: {
        tags,
        operationId: 'openapi',
        summary: 'This API as an OpenAPI 3.1 document',
        response: {
          200: Type.Object(
            {},
            { additionalProperties: true, description: 'The OpenAPI document.' },
          ),
          ...errors(),
        },
      },
    },
    async () => fastify.swagger(),
  );

  fastify.get(
    '/api/config',
    {
      schema: {
        tags,
        operationId: 'getConfig',
        summary: 'The whole configuration and its revision',
        description: 'The same message /ws/config pushes, for clients that poll.',
        response: { 200: Type.Ref(ConfigMessage), ...errors() },
      },
    },
    async () => ({ type: 'config' as const, ...store.snapshot() }),
  );

  fastify.get(
    '/ws/config',
    {
      ...webSocket((socket, request) =>
        feed(fastify.feeds.open(socket, 'config', request), (send) => {
          const message = (snapshot: ReturnType<typeof store.snapshot>) =>
            send({ type: 'config', ...snapshot });
          message(store.snapshot());
          return store.subscribe(message);
        }),
      ),
      schema: {
        tags,
        operationId: 'watchConfig',
        summary: 'Live configuration (WebSocket)',
        description:
          'Upgrade to a WebSocket. The daemon sends a ConfigMessage (JSON: type "config", ' +
          'revision, config) at once, then again after every change, whether made through the ' +
          'API or by editing the files. Messages from the client are ignored. A client that ' +
          `does not keep up (more than ${FEED_BACKLOG_BOUND / (1 << 20)} MiB unsent, counting ` +
          `the kernel's send queue) is closed with code ${CLOSE_TOO_SLOW}: it should connect ` +
          'again, and gets the whole configuration as it is then. A plain GET answers 426 ' +
          'Upgrade Required.',
        response: {
          101: Type.Ref(ConfigMessage, {
            description: 'Switching protocols; every message is a ConfigMessage.',
          }),
          ...errors(426),
        },
      },
    },
    upgradeRequired,
  );
};

export default system;
