// The streams service (issue 14): the MP3 stream of each sink, encoded in the audio engine; this
// service keeps one hub per sink and follows the configuration. Its route is mp3-routes.ts.
// WebRTC (WHEP) is not built yet.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mp3Streams } from './mp3-streams.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** MP3 streams of sinks: their hubs and statistics. */
    streams: Mp3Streams;
  }
}

export default fp(
  async (fastify: FastifyInstance) => {
    const streams = new Mp3Streams(fastify.engine);
    fastify.decorate('streams', streams);
    streams.update(fastify.configStore.snapshot());
    const unsubscribe = fastify.configStore.subscribe((snapshot) => streams.update(snapshot));
    // Before the engine stops (onClose hooks run in reverse order of registration).
    fastify.addHook('preClose', (done) => {
      unsubscribe();
      streams.close();
      done();
    });
  },
  { name: 'streams', fastify: '5.x', dependencies: ['config-store', 'engine'] },
);
