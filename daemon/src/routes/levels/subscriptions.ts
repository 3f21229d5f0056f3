// What one /ws/levels socket (or one GET /api/levels) asks for: a set of subscriptions, each the
// fields of the levels query, merged into one request of the engine per message. A sink or
// source several subscriptions name is read once, with the most detail any of them asked for,
// so a page's meters, active source and visualizer share one socket and one reading.
import type { EngineLevels } from '@tributary/native';
import {
  type LevelsClientMessage,
  type LevelsMessage,
  type LevelsQuery,
  type LevelsRefusal,
  LevelsSubscribe,
  LevelsUnsubscribe,
  MAX_LEVEL_SUBSCRIPTIONS,
  type SinkLevels,
} from '../../schema/levels.js';
import {
  encodeLevelsFrame,
  type LEVEL_ARRAYS,
  type LevelsToEncode,
} from '../../schema/levels-frame.js';
import { check, makeProblem } from '../../schema/validate.js';

type Detail = NonNullable<LevelsQuery['detail']>;

/** One sink's or source's levels as the engine reads them (its arrays are Float32Array). */
type Read = Omit<EngineLevels, (typeof LEVEL_ARRAYS)[number]> &
  Record<(typeof LEVEL_ARRAYS)[number], ArrayLike<number>>;

/** What the engine reads for the sinks and sources of some subscriptions. */
export interface LevelsReader {
  levels(ids: string[]): Read[];
  sourceLevels(ids: string[]): Read[];
}

const round = (digits: number) => {
  const scale = 10 ** digits;
  return (x: number) => Math.round(x * scale) / scale;
};
const fine = round(5);
const tenth = round(1);
const wave = round(4);

/** What a message carries of one sink's or source's levels (`meter`: no spectrum), as read. */
function shown(l: Read, detail: Detail): LevelsToEncode {
  const meter = {
    config_id: l.config_id,
    name: l.name,
    channels: l.channels,
    sample_rate: l.sample_rate,
    windows: l.windows,
    peak: l.peak,
    rms: l.rms,
  };
  if (detail === 'meter') return meter;
  return { ...meter, spectrum: l.spectrum, wave_min: l.wave_min, wave_max: l.wave_max };
}

/** The same as JSON carries it: plain arrays, rounded to what a meter or a plot shows. */
function asJson({ peak, rms, spectrum, wave_min, wave_max, ...fields }: LevelsToEncode) {
  const out: SinkLevels = {
    ...fields,
    peak: Array.from(peak, fine),
    rms: Array.from(rms, fine),
  };
  if (spectrum) out.spectrum = Array.from(spectrum, tenth);
  if (wave_min) out.wave_min = Array.from(wave_min, wave);
  if (wave_max) out.wave_max = Array.from(wave_max, wave);
  return out;
}

const more = (a: Detail | undefined, b: Detail): Detail =>
  a === 'full' || b === 'full' ? 'full' : 'meter';
const ids = (list: string | undefined) => (list ? list.split(',') : []);

/** The levels message for a set of subscriptions (GET /api/levels: a set of one). */
export function levelsFor(
  engine: LevelsReader,
  subscriptions: Iterable<LevelsQuery>,
): LevelsMessage {
  const { sinks, sources } = readLevels(engine, subscriptions);
  return { type: 'levels', sinks: sinks.map(asJson), sources: sources.map(asJson) };
}

/** The same message as one binary frame (`encoding=binary`: schema/levels-frame.ts). */
export function levelsFrameFor(
  engine: LevelsReader,
  subscriptions: Iterable<LevelsQuery>,
): Uint8Array {
  return encodeLevelsFrame(readLevels(engine, subscriptions));
}

/** What the engine reads for a set of subscriptions, each level with the detail asked for. */
function readLevels(engine: LevelsReader, subscriptions: Iterable<LevelsQuery>) {
  // Detail for every sink (when one subscription names none), per sink and per source.
  let everySink: Detail | undefined;
  const sinks = new Map<string, Detail>();
  const sources = new Map<string, Detail>();
  for (const { sink, source, detail = 'full' } of subscriptions) {
    if (!sink && !source) everySink = more(everySink, detail);
    for (const id of ids(sink)) sinks.set(id, more(sinks.get(id), detail));
    for (const id of ids(source)) sources.set(id, more(sources.get(id), detail));
  }
  const sinkDetail = (id: string) => more(everySink, sinks.get(id) ?? 'meter');
  const read =
    everySink !== undefined
      ? engine.levels([])
      : sinks.size > 0
        ? engine.levels([...sinks.keys()])
        : [];
  return {
    sinks: read.map((l) => shown(l, sinkDetail(l.config_id))),
    sources:
      sources.size > 0
        ? engine
            .sourceLevels([...sources.keys()])
            .map((l) => shown(l, sources.get(l.config_id) ?? 'meter'))
        : [],
  };
}

/**
 * One socket's subscriptions, changed by its client's messages. `handle` applies a message and
 * returns the refusal to send back, if it could not.
 */
export class LevelSubscriptions {
  readonly #all = new Map<string, LevelsQuery>();

  constructor(initial?: LevelsQuery) {
    if (initial) this.#all.set('url', initial);
  }

  get size(): number {
    return this.#all.size;
  }

  values(): Iterable<LevelsQuery> {
    return this.#all.values();
  }

  handle(text: string): LevelsRefusal | null {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return refusal([makeProblem('', 'json', 'must be JSON', text.slice(0, 60))]);
    }
    const type = (message as { type?: unknown } | null)?.type;
    const schema =
      type === 'subscribe' ? LevelsSubscribe : type === 'unsubscribe' ? LevelsUnsubscribe : null;
    if (!schema) {
      const problem = makeProblem(
        'type',
        'enum',
        'must be one of "subscribe", "unsubscribe"',
        type,
      );
      return refusal([problem]);
    }
    const problems = check(schema, message);
    if (problems.length > 0) return refusal(problems);
    const valid = message as LevelsClientMessage;
    if (valid.type === 'unsubscribe') {
      this.#all.delete(valid.id);
      return null;
    }
    const { type: _, id, ...query } = valid;
    if (!this.#all.has(id) && this.#all.size >= MAX_LEVEL_SUBSCRIPTIONS) {
      const rule = `must name one of the socket's ${MAX_LEVEL_SUBSCRIPTIONS} subscriptions (no more may be added)`;
      return refusal([makeProblem('id', 'maxSubscriptions', rule, id)]);
    }
    this.#all.set(id, query);
    return null;
  }
}

function refusal(details: LevelsRefusal['details']): LevelsRefusal {
  return { type: 'error', message: details.map((d) => d.message).join('; '), details };
}
