// An example product plugin (docs: /docs/plugins, "Permanent sources of your own"): permanent
// sources that play white noise at -20 dBFS RMS, for matching the levels of speakers by ear or
// with a meter. Its sources live in config.yaml with the tag `plugin:noise`, are routed like any
// source and play again after a restart: the plugin owns them through `context.sources`.
//   POST   /plugins/noise/source {"name": "Noise"}  adds one (201 {name, config_id})
//   GET    /plugins/noise/                           lists them
//   DELETE /plugins/noise/source/{name or config_id} removes one
const RATE = 48000;
/** Audio the engine's ring holds, and how often the plugin tops it up. */
const RING_MS = 300;
/** What its sources are written in (config.yaml keeps it as each one's plugin_format). */
const FORMAT = { sampleRate: RATE, channels: 2, sampleFormat: 's16le', ringMs: RING_MS };
const TICK_MS = 20;
/** Uniform noise in [-a, a] has an RMS of a / sqrt(3): a is set for -20 dBFS RMS. */
const AMPLITUDE = 10 ** (-20 / 20) * Math.sqrt(3);

let context = null;
let timer = null;
/** The open sources, by config_id. */
const writers = new Map();
const scratch = new Float32Array(Math.ceil((RATE * RING_MS) / 1000) * 2);

/** Opens the audio of every source of this plugin not open yet; forgets those gone. */
function follow() {
  const ids = new Set();
  for (const { config_id } of context.sources.list()) {
    ids.add(config_id);
    if (writers.has(config_id)) continue;
    const writer = context.sources.open(config_id, FORMAT);
    if (writer) writers.set(config_id, writer);
  }
  // The host closed the audio of a source removed from the configuration.
  for (const id of writers.keys()) if (!ids.has(id)) writers.delete(id);
}

function write() {
  for (const writer of writers.values()) {
    const frames = Math.min(writer.freeFrames, scratch.length / 2);
    for (let i = 0; i < frames * 2; i++) scratch[i] = AMPLITUDE * (2 * Math.random() - 1);
    writer.writeSamples(scratch.subarray(0, frames * 2));
  }
}

export default {
  name: 'noise',
  start(ctx) {
    context = ctx;
    follow();
    timer = setInterval(write, TICK_MS);
    timer.unref();
  },
  load: () => follow(),
  stop() {
    clearInterval(timer);
    writers.clear();
  },
  routes: async (fastify) => {
    fastify.get('/', async () => context.sources.list());
    fastify.post(
      '/source',
      {
        schema: {
          body: {
            type: 'object',
            properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
      async (request, reply) => {
        const source = await context.sources.add(request.body.name, FORMAT);
        follow();
        reply.code(201);
        return source;
      },
    );
    fastify.delete('/source/:key', async (request) => {
      await context.sources.remove(request.params.key);
      follow();
      return context.sources.list();
    });
  },
};
