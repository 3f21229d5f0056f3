// How the OpenAPI document is built from the routes' schemas (served at /api/openapi.json and
// written to daemon/openapi.json by `npm run openapi -w @tributary/daemon`).
import type { SwaggerOptions } from '@fastify/swagger';
import { version } from '../version.js';

export const openapiOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Tributary API',
      version,
      description:
        'The HTTP API of the Tributary daemon: sinks, sources, routes, equalizer presets and ' +
        'the live configuration. Every change is saved to config.yaml / equalizers.yaml before ' +
        'it is acknowledged. Invalid input gets a 400 whose body names the field, the rule and ' +
        'the value; unknown names a 404; taken names and entries still in use a 409.\n\n' +
        'The API is open by default, as on a trusted home network. When the daemon runs with ' +
        'API_TOKEN set, every request needs `Authorization: Bearer <token>` or the cookie ' +
        '`tributary_token=<token>`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [
      { name: 'Sinks', description: 'Where audio goes: receivers, speakers and sink groups.' },
      { name: 'Sources', description: 'Where audio comes from, and media control of the sender.' },
      {
        name: 'Routes',
        description: 'Which source plays on which sink, with volume, EQ and delay.',
      },
      { name: 'Equalizers', description: 'Named 18-band equalizer presets (equalizers.yaml).' },
      {
        name: 'Streaming',
        description: "A sink's mix as an MP3 stream over HTTP, and WebRTC listening (WHEP).",
      },
      {
        name: 'Discovery',
        description: 'SAP (RFC 2974) and mDNS/DNS-SD: streams and devices found, and the settings.',
      },
      {
        name: 'Plugins',
        description:
          'Built-in product plugins: play URLs on a sink (playurl, playurlmultiple) and the test tone.',
      },
      { name: 'System', description: 'Health, this document and the live configuration.' },
    ],
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API_TOKEN, when the daemon is started with one.',
        },
        tokenCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tributary_token',
          description: 'The API_TOKEN as a cookie (for browsers and WebSockets).',
        },
      },
    },
    // Empty alternative first: no token is needed unless API_TOKEN is set.
    security: [{}, { bearerToken: [] }, { tokenCookie: [] }],
  },
  refResolver: {
    buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
  },
};
