// The streams service (issue 14): the MP3 stream of each sink, encoded in the audio engine; this
// service keeps one hub per sink and follows the configuration. Its route is mp3-routes.ts.
// WebRTC (WHEP) listening, encoded and sent by the engine too: whep.ts, routes whep-routes.ts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mp3Streams } from './mp3-streams.js';
import { WhepListening } from './whep.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** MP3 streams of sinks: their hubs and statistics. */
    streams: Mp3Streams;
    /** WebRTC (WHEP) listening: sessions, caps and statistics. */
    whep: WhepListening;
  }
}

export default fp(
  async (fastify: FastifyInstance) => {
    const streams = new Mp3Streams(fastify.engine);
    fastify.decorate('streams', streams);
    const whep = new WhepListening(fastify.engine);
    fastify.decorate('whep', whep);
    streams.update(fastify.configStore.snapshot());
    whep.update(fastify.configStore.snapshot());
    const unsubscribe = fastify.configStore.subscribe((snapshot) => {
      streams.update(snapshot);
      whep.update(snapshot);
    });
    // Before the engine stops (onClose hooks run in reverse order of registration).
    fastify.addHook('preClose', (done) => {
      unsubscribe();
      streams.close();
      whep.closeAll();
      done();
    });
  },
  { name: 'streams', fastify: '5.x', dependencies: ['config-store', 'engine'] },
);
