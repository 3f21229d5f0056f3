// The built-in `tone` plugin: permanent plugin sources that play a sine, for setting up
// speakers. `POST /plugins/tone/source` adds one to config.yaml through `context.sources` (a
// source with the tag `plugin:tone`, no address: saved, listed by GET /sources, routed like any
// source, there again after a restart); the plugin plays every source so tagged as an in-process
// source whose id is its config_id. `GET|PUT /plugins/tone/` read and set the frequency and
// level (in memory).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../routes/shared.js';
import { Name } from '../schema/common.js';
import type { MemoryWriter, PluginContext, TributaryPlugin } from './types.js';

const RATE = 48000;
/** The ring the engine reads from, and how often it is topped up (JS may be late by RING - TICK). */
const RING_MS = 300;
/** What its sources are written in (config.yaml keeps it as their plugin_format). */
const FORMAT = { sampleRate: RATE, channels: 2, sampleFormat: 's16le', ringMs: RING_MS };
const TICK_MS = 20;

/** What the tone plays (shared by every tone source). */
export interface ToneSettings {
  frequency_hz: number;
  level_dbfs: number;
}

const ToneSettingsSchema = Type.Object(
  {
    frequency_hz: Type.Number({ minimum: 20, maximum: 20000, description: 'Frequency, Hz.' }),
    level_dbfs: Type.Number({ minimum: -60, maximum: 0, description: 'Peak level, dBFS.' }),
  },
  { additionalProperties: false },
);

/** The in-process source of one tone source, written from a timer. */
interface Playing {
  readonly source: MemoryWriter;
  phase: number;
}

export function tonePlugin(): TributaryPlugin {
  const settings: ToneSettings = { frequency_hz: 440, level_dbfs: -18 };
  const playing = new Map<string, Playing>();
  const scratch = new Float32Array(Math.ceil((RATE * RING_MS) / 1000) * 2);
  let context: PluginContext | null = null;
  let timer: NodeJS.Timeout | null = null;

  /** Plays every source of the plugin, and no other (the host closed those gone). */
  const follow = () => {
    if (!context) return;
    const ids = new Set(context.sources.list().map((s) => s.config_id));
    for (const id of playing.keys()) if (!ids.has(id)) playing.delete(id);
    for (const id of ids) {
      if (playing.has(id)) continue;
      const source = context.sources.open(id, FORMAT);
      if (source) playing.set(id, { source, phase: 0 });
    }
  };

  /** Fills every ring with the sine, continuing each one's phase. */
  const write = () => {
    const amplitude = 10 ** (settings.level_dbfs / 20);
    const step = (2 * Math.PI * settings.frequency_hz) / RATE;
    for (const p of playing.values()) {
      const frames = Math.min(p.source.freeFrames, scratch.length / 2);
      for (let i = 0; i < frames; i++) {
        const v = amplitude * Math.sin(p.phase + i * step);
        scratch[2 * i] = v;
        scratch[2 * i + 1] = v;
      }
      p.phase = (p.phase + frames * step) % (2 * Math.PI);
      p.source.writeSamples(scratch.subarray(0, frames * 2));
    }
  };

  const routes: FastifyPluginAsync = async (fastify) => {
    const tags = ['Plugins'];
    fastify.get(
      '/',
      {
        schema: {
          tags,
          operationId: 'getTone',
          summary: 'The test tone',
          response: { 200: ToneSettingsSchema, ...errors() },
        },
      },
      () => settings,
    );
    fastify.put<{ Body: ToneSettings }>(
      '/',
      {
        schema: {
          tags,
          operationId: 'setTone',
          summary: 'Set the test tone (every tone source, from now on)',
          body: ToneSettingsSchema,
          response: { 200: ToneSettingsSchema, ...errors(400) },
        },
      },
      (request) => Object.assign(settings, request.body),
    );
    fastify.post<{ Body: { name: string } }>(
      '/source',
      {
        schema: {
          tags,
          operationId: 'addToneSource',
          summary: 'Add a permanent tone source',
          description:
            'Adds a source with the tag plugin:tone to config.yaml: route it to a sink to hear ' +
            'the tone; delete it like any source.',
          body: Type.Object({ name: Name }, { additionalProperties: false }),
          response: {
            201: Type.Object({ name: Type.String(), config_id: Type.String() }),
            ...errors(400, 409),
          },
        },
      },
      async (request, reply) => {
        if (!context) throw new Error('the tone plugin is not running');
        const source = await context.sources.add(request.body.name, FORMAT);
        reply.code(201);
        return source;
      },
    );
  };

  return {
    name: 'tone',
    start(ctx) {
      context = ctx;
      follow();
      timer = setInterval(write, TICK_MS);
      timer.unref();
      write();
    },
    load: () => follow(),
    stop() {
      // The host closes the sources' audio.
      if (timer) clearInterval(timer);
      playing.clear();
    },
    routes,
  };
}
