// An example product plugin (docs: /docs/plugins, "Write a plugin"): POST /plugins/doorbell/ring
// plays a chime on a sink group over whatever plays there. Copy it into PLUGINS_DIRECTORY and set
// DOORBELL_URL and DOORBELL_SINK (defaults below) in the service's environment.
const url = process.env.DOORBELL_URL ?? 'http://192.168.1.20/doorbell.mp3';
const sink = process.env.DOORBELL_SINK ?? 'Downstairs';

let play;
let rings = 0;

export default {
  name: 'doorbell',
  start(context) {
    play = context.playUrls;
    context.log.info(`doorbell ready: POST /plugins/doorbell/ring plays ${url} on ${sink}`);
  },
  routes: async (fastify) => {
    fastify.post('/ring', async () => {
      rings++;
      return { id: await play([url], sink), rings };
    });
  },
};
