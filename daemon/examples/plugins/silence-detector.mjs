// An example product plugin (docs: /docs/plugins): logs when a source goes quiet and when it
// plays again. Every half second it reads the levels of the sources the engine plays; a source
// is quiet once nothing in it passed THRESHOLD dBFS for QUIET_AFTER seconds (a sender that
// stopped sending is quiet too). GET /plugins/silence-detector/ lists each source's state.
// The two settings are its section of config.yaml, `plugins.silence-detector` (checked by the
// host against SETTINGS, defaults filled in), read at start and when the section changes;
// PUT /plugins/silence-detector/ {threshold_dbfs, quiet_after_s} changes them in memory until
// the section changes.
const SETTINGS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    threshold_dbfs: { type: 'number', minimum: -100, maximum: 0, default: -50 },
    quiet_after_s: { type: 'number', minimum: 0.5, maximum: 3600, default: 10 },
  },
};
const settings = { threshold_dbfs: -50, quiet_after_s: 10 };
/** The section as last read (load runs after every change of the configuration, any part). */
let section = '';
/** By config_id: name, state, since when, last loud moment, meter windows seen. */
const sources = new Map();
let timer = null;

function watch(context) {
  const now = Date.now();
  const threshold = 10 ** (settings.threshold_dbfs / 20);
  const seen = new Set();
  for (const level of context.engine.sourceLevels([])) {
    seen.add(level.config_id);
    let s = sources.get(level.config_id);
    if (!s) {
      s = { name: level.name, state: 'playing', since: now, loud: now, windows: -1 };
      sources.set(level.config_id, s);
    }
    const fresh = level.windows !== s.windows;
    s.windows = level.windows;
    if (fresh && Math.max(0, ...level.peak) > threshold) s.loud = now;
    const quiet = now - s.loud >= settings.quiet_after_s * 1000;
    if (quiet && s.state === 'playing') {
      Object.assign(s, { state: 'quiet', since: now });
      context.log.info(
        `source ${s.name} went quiet: nothing above ${settings.threshold_dbfs} dBFS for ${settings.quiet_after_s} s`,
      );
    } else if (!quiet && s.state === 'quiet') {
      Object.assign(s, { state: 'playing', since: now });
      context.log.info(`source ${s.name} plays again`);
    }
  }
  // Sources no route plays any more are forgotten.
  for (const id of sources.keys()) if (!seen.has(id)) sources.delete(id);
}

export default {
  name: 'silence-detector',
  settings: SETTINGS,
  start(context) {
    section = JSON.stringify(context.settings());
    Object.assign(settings, context.settings());
    timer = setInterval(() => watch(context), 500);
    timer.unref();
  },
  load(_config, own) {
    if (JSON.stringify(own) === section) return;
    section = JSON.stringify(own);
    Object.assign(settings, own);
  },
  stop() {
    clearInterval(timer);
  },
  routes: async (fastify) => {
    const properties = {
      threshold_dbfs: { type: 'number', minimum: -100, maximum: 0 },
      quiet_after_s: { type: 'number', minimum: 0.5, maximum: 3600 },
    };
    const Settings = { ...SETTINGS, properties, required: Object.keys(properties) };
    const view = () => ({
      ...settings,
      sources: [...sources].map(([config_id, s]) => ({
        config_id,
        name: s.name,
        state: s.state,
        since: new Date(s.since).toISOString(),
      })),
    });
    fastify.get('/', view);
    fastify.put('/', { schema: { body: Settings } }, (request) => {
      Object.assign(settings, request.body);
      return view();
    });
  },
};
