// Listening outputs (issue 14): the MP3 stream of each sink at GET /stream/{ip}/, encoded in
// the audio engine; this plugin only serves the frames over HTTP. WebRTC (WHEP) comes later.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import mp3Routes from './mp3-routes.js';
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
    await fastify.register(mp3Routes);
  },
  { name: 'streams', fastify: '5.x', dependencies: ['config-store', 'engine'] },
);
