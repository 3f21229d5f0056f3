// What every card's state chip says, worked out from /ws/stats (counters, once a second), the
// configuration and the solver's output: is audio arriving, is it heard, is anything wrong.
// Counters only grow, so "in the last minute" is the difference with a sample a minute old.

import type {
  Config,
  EngineStatus,
  SinkStats,
  SolvedPath,
  SolverOutput,
  Source,
  SourceStats,
  StatsMessage,
  UnknownSender,
} from '../api/schema';
import { jsonEqual } from './json-equal';

export type ChipState =
  | 'playing'
  | 'silent'
  | 'no-signal'
  | 'problem'
  | 'off'
  | 'unrouted'
  | 'idle';

export interface Chip {
  readonly state: ChipState;
  /** Short text on the chip (colour is never the only signal). */
  readonly label: string;
  /** One sentence more, for the tooltip and screen readers. */
  readonly detail: string;
}

export interface SourceActivity {
  readonly chip: Chip;
  readonly stats: SourceStats | null;
}
export interface SinkActivity {
  readonly chip: Chip;
  readonly stats: SinkStats | null;
  readonly underrunsLastMinute: number;
}
export interface RouteActivity {
  readonly chip: Chip;
  /** The solver's paths chosen through this route (one per real source and real sink). */
  readonly paths: readonly SolvedPath[];
}

export interface Activity {
  readonly engine: EngineStatus | null;
  readonly sources: ReadonlyMap<string, SourceActivity>;
  readonly sinks: ReadonlyMap<string, SinkActivity>;
  readonly routes: ReadonlyMap<string, RouteActivity>;
  /** Senders the engine hears that no source in the configuration matches. */
  readonly unknownSenders: readonly UnknownSender[];
  /** config_id of each real source -> the real sinks it plays on (names, in config order). */
  readonly playsOn: ReadonlyMap<string, readonly string[]>;
}

export const EMPTY_ACTIVITY: Activity = {
  engine: null,
  sources: new Map(),
  sinks: new Map(),
  routes: new Map(),
  unknownSenders: [],
  playsOn: new Map(),
};

interface Sample {
  readonly at: number;
  readonly packets: number;
  readonly troubles: number;
  /** Packets of a second sender the engine dropped (sources only). */
  readonly competing: number;
}

/** A packet counter that grew within this long counts as "playing" (stats come every second). */
const PLAYING_WINDOW_MS = 2500;
const PROBLEM_WINDOW_MS = 60_000;
/**
 * Troubles in the last minute a listener hears as a problem. One concealed gap (a lost or late
 * packet of a few ms, an underrun faded out) is hardly audible; several a minute are heard as
 * crackle or dropouts, and the chip turns red. Fewer stay in the chip's detail, calm.
 */
export const AUDIBLE_TROUBLES = 5;
/** An unknown sender heard this recently is "arriving". */
const ARRIVING_MS = 3000;

const chip = (state: ChipState, label: string, detail: string): Chip => ({ state, label, detail });

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function underrunText(n: number): string {
  return `${n} ${n === 1 ? 'underrun or send error' : 'underruns or send errors'}`;
}

/**
 * Does `sender` belong to `source`? As the engine matches a packet (native/engine/src/runtime/
 * ingest.rs): Scream by address, to a Scream source without a tag; tagged Scream by tag alone;
 * RTP by port, from the source's address when it names one (its payload type is not reported,
 * so a source that accepts one payload type may still refuse a sender this says it takes).
 */
export function senderMatches(sender: UnknownSender, source: Source): boolean {
  if (source.is_group) return false;
  switch (sender.kind) {
    case 'scream':
      return source.rtp === null && source.tag === null && source.ip === sender.address;
    case 'scream-tagged':
      return sender.tag !== null && source.tag === sender.tag;
    case 'rtp':
      return (
        source.rtp !== null &&
        source.rtp.port === sender.port &&
        (source.ip === null || source.ip === sender.address)
      );
    case 'memory':
      // An in-process source is written from memory: never an unknown sender.
      return false;
  }
}

/** Remembers counters over the last minute, one sample per stats message and entry. */
export class ActivityTracker {
  readonly #samples = new Map<string, Sample[]>();
  readonly #lastGrowth = new Map<string, number>();

  /** Records a stats message received at `now` (ms). */
  observe(stats: StatsMessage, now: number): void {
    const seen = new Set<string>();
    const record = (id: string, packets: number, troubles: number, competing = 0) => {
      seen.add(id);
      const list = this.#samples.get(id) ?? [];
      const last = list.at(-1);
      if (last && packets > last.packets) this.#lastGrowth.set(id, now);
      list.push({ at: now, packets, troubles, competing });
      while (list.length > 1 && list[0]!.at < now - PROBLEM_WINDOW_MS) list.shift();
      this.#samples.set(id, list);
    };
    for (const s of stats.sources) {
      record(s.config_id, s.packets, s.lost + s.late + s.malformed, s.competing_packets);
    }
    for (const s of stats.sinks) record(s.config_id, s.packets, s.underruns + s.send_errors);
    for (const id of this.#samples.keys()) if (!seen.has(id)) this.#samples.delete(id);
  }

  /** Whether the packet counter of `id` grew within PLAYING_WINDOW_MS of `now`. */
  growing(id: string, now: number): boolean {
    const at = this.#lastGrowth.get(id);
    return at !== undefined && now - at <= PLAYING_WINDOW_MS;
  }

  /** Whether a second sender's packets to source `id` were dropped within PLAYING_WINDOW_MS. */
  competing(id: string, now: number): boolean {
    const list = this.#samples.get(id) ?? [];
    for (let i = list.length - 1; i > 0 && now - list[i]!.at <= PLAYING_WINDOW_MS; i--) {
      if (list[i]!.competing > list[i - 1]!.competing) return true;
    }
    return false;
  }

  /** Whether there are two samples of `id` yet (growth can only be seen from the second). */
  seenTwice(id: string): boolean {
    return (this.#samples.get(id)?.length ?? 0) >= 2;
  }

  /** Seconds since the counter last grew, or null when it never did while we watched. */
  quietFor(id: string, now: number): number | null {
    const at = this.#lastGrowth.get(id);
    return at === undefined ? null : Math.round((now - at) / 1000);
  }

  /** How much the trouble counter (loss + late + malformed, or underruns + send errors) grew. */
  troublesLastMinute(id: string): number {
    const list = this.#samples.get(id);
    if (!list || list.length < 2) return 0;
    return list.at(-1)!.troubles - list[0]!.troubles;
  }
}

function engineChip(engine: EngineStatus | null): Chip | null {
  if (engine === null) return chip('idle', 'waiting', 'No statistics from the engine yet.');
  if (engine.state === 'off') return chip('idle', 'engine off', 'The server runs with ENGINE=off.');
  if (engine.state === 'failed') {
    return chip('problem', 'engine failed', engine.error ?? 'The audio engine did not start.');
  }
  return null;
}

/** Every card's chip and the unknown senders, from the latest stats and the configuration. */
export function computeActivity(
  config: Config,
  solved: SolverOutput,
  stats: StatsMessage | null,
  tracker: ActivityTracker,
  now: number,
): Activity {
  const engine = stats?.engine ?? null;
  const down = engineChip(engine);
  // Left out by the engine because they kept making it fail (a change gives them another go).
  const held = new Map(engine?.quarantined.map((q) => [q.config_id, q.message]) ?? []);
  const quarantined = (id: string) => {
    const message = held.get(id);
    return message === undefined ? null : chip('problem', 'quarantined', message);
  };
  const sourceStats = new Map(stats?.sources.map((s) => [s.config_id, s]) ?? []);
  const sinkStats = new Map(stats?.sinks.map((s) => [s.config_id, s]) ?? []);
  const heard = (stats?.unknown_senders ?? []).filter((u) => u.last_seen_ms_ago <= ARRIVING_MS);
  const sources = new Map<string, SourceActivity>();
  const playing = new Set<string>();

  for (const source of config.sources) {
    if (source.is_group) continue;
    const own = sourceStats.get(source.config_id) ?? null;
    let state: Chip;
    if (!source.enabled) state = chip('off', 'off', 'Disabled: it plays nowhere.');
    else if (down) state = down;
    else if (held.has(source.config_id)) state = quarantined(source.config_id)!;
    else if (own && tracker.growing(source.config_id, now)) {
      playing.add(source.config_id);
      const troubles = tracker.troublesLastMinute(source.config_id);
      const lost = `${plural(troubles, 'packet')} lost, late or malformed in the last minute`;
      state = tracker.competing(source.config_id, now)
        ? chip(
            'problem',
            'two senders',
            `${own.competing_sender ?? 'Another sender'} is sending to this source too: only the sender heard first plays, the other's audio is dropped. Stop one of them, or give the other a source of its own.`,
          )
        : troubles >= AUDIBLE_TROUBLES
          ? chip('problem', 'breaking up', `${lost}: the gaps are audible.`)
          : chip(
              'playing',
              'playing',
              troubles > 0
                ? `Audio is arriving; ${lost} (concealed, hardly audible).`
                : 'Audio is arriving and plays on its routes.',
            );
    } else if (own && own.packets > 0 && !tracker.seenTwice(source.config_id)) {
      state = chip(
        'idle',
        'checking',
        'Waiting for the next statistics (they come once a second).',
      );
    } else if (heard.some((u) => senderMatches(u, source))) {
      state = chip('unrouted', 'not routed', 'Audio is arriving; route it to a sink to hear it.');
    } else {
      const quiet = tracker.quietFor(source.config_id, now);
      state = chip(
        'no-signal',
        quiet === null ? 'no signal' : `silent for ${quiet} s`,
        'No audio is arriving from this source.',
      );
    }
    sources.set(source.config_id, { chip: state, stats: own });
  }

  const playsOn = new Map<string, string[]>();
  const routes = new Map<string, SolvedPath[]>();
  const sinkPlaying = new Set<string>();
  for (const sink of solved.sinks) {
    for (const path of sink.paths) {
      const list = playsOn.get(path.source_config_id) ?? [];
      list.push(sink.name);
      playsOn.set(path.source_config_id, list);
      const viaRoute = routes.get(path.route_config_id) ?? [];
      viaRoute.push(path);
      routes.set(path.route_config_id, viaRoute);
      if (playing.has(path.source_config_id)) sinkPlaying.add(sink.config_id);
    }
  }

  const sinks = new Map<string, SinkActivity>();
  for (const sink of config.sinks) {
    if (sink.is_group) continue;
    const own = sinkStats.get(sink.config_id) ?? null;
    const underruns = tracker.troublesLastMinute(sink.config_id);
    let state: Chip;
    if (!sink.enabled) state = chip('off', 'off', 'Disabled: nothing is sent to it.');
    else if (down) state = down;
    else if (held.has(sink.config_id)) state = quarantined(sink.config_id)!;
    else if (underruns >= AUDIBLE_TROUBLES) {
      state = chip(
        'problem',
        'dropouts',
        `${underrunText(underruns)} in the last minute: the gaps are audible.`,
      );
    } else if (sinkPlaying.has(sink.config_id)) {
      state = chip(
        'playing',
        'playing',
        underruns > 0
          ? `A routed source is playing on it; ${underrunText(underruns)} in the last minute (faded, hardly audible).`
          : 'A routed source is playing on it.',
      );
    } else state = chip('silent', 'silent', 'No routed source is playing on it.');
    sinks.set(sink.config_id, { chip: state, stats: own, underrunsLastMinute: underruns });
  }

  const isPlaying = (id: string) => playing.has(id) || sinkPlaying.has(id);
  addGroups(config.sources, sources, isPlaying, (c) => ({ chip: c, stats: null }));
  addGroups(config.sinks, sinks, isPlaying, (c) => ({
    chip: c,
    stats: null,
    underrunsLastMinute: 0,
  }));

  const routeActivity = new Map<string, RouteActivity>();
  for (const route of config.routes) {
    const paths = routes.get(route.config_id) ?? [];
    let state: Chip;
    if (!route.enabled) state = chip('off', 'off', 'Disabled: it plays nothing.');
    else if (down) state = down;
    else if (paths.some((p) => playing.has(p.source_config_id))) {
      state = chip('playing', 'playing', 'Its source is playing on its sink.');
    } else if (paths.length === 0) {
      state = chip(
        'silent',
        'unused',
        'Nothing plays through it: its source or sink is disabled, or another route plays the same pair louder.',
      );
    } else state = chip('silent', 'silent', 'Its source sends no audio.');
    routeActivity.set(route.config_id, { chip: state, paths });
  }

  const unknownSenders = heard.filter((u) => !config.sources.some((s) => senderMatches(u, s)));
  return {
    engine,
    sources,
    sinks,
    routes: routeActivity,
    unknownSenders,
    playsOn,
  };
}

interface GroupEntry {
  readonly name: string;
  readonly config_id: string;
  readonly is_group: boolean;
  readonly enabled: boolean;
  readonly group_members: readonly string[];
}

/** A group's chip from its real members' (recursively): playing when one plays, else quiet. */
function addGroups<T extends { chip: Chip }>(
  entries: readonly GroupEntry[],
  out: Map<string, T>,
  isPlaying: (id: string) => boolean,
  make: (chip: Chip) => T,
): void {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const members = (name: string, trail: Set<string>): string[] => {
    const entry = byName.get(name);
    if (!entry || trail.has(name)) return [];
    if (!entry.is_group) return [entry.config_id];
    trail.add(name);
    return entry.group_members.flatMap((m) => members(m, trail));
  };
  for (const entry of entries) {
    if (!entry.is_group) continue;
    if (!entry.enabled) {
      out.set(
        entry.config_id,
        make(chip('off', 'off', 'Disabled: its members are not used through it.')),
      );
      continue;
    }
    const count = new Set(members(entry.name, new Set()).filter(isPlaying)).size;
    out.set(
      entry.config_id,
      make(
        count > 0
          ? chip('playing', `${count} playing`, `${plural(count, 'member')} playing.`)
          : chip('silent', 'quiet', 'No member is playing.'),
      ),
    );
  }
}

/** `value` with the chip of `old` when the two chips are equal. */
function keepChip<V>(old: V, value: V): V {
  const a = (old as { chip?: Chip }).chip;
  const b = (value as { chip?: Chip }).chip;
  if (a === undefined || b === undefined || a === b || !jsonEqual(a, b)) {
    return value;
  }
  return { ...value, chip: a };
}

/**
 * `next` with every entry that did not change replaced by the previous object (and a whole map
 * or list too when nothing in it changed), so a card re-renders only when what it shows changed.
 * An entry that did change keeps its previous chip when the chip did not: a source's counters
 * move with every stats message, and its chip (what the card shows) stays the same object.
 */
export function keepUnchanged(previous: Activity, next: Activity): Activity {
  const same = jsonEqual;
  const merge = <V>(before: ReadonlyMap<string, V>, after: ReadonlyMap<string, V>) => {
    let changed = before.size !== after.size;
    const out = new Map<string, V>();
    for (const [key, value] of after) {
      const old = before.get(key);
      if (old !== undefined && same(old, value)) out.set(key, old);
      else {
        out.set(key, old === undefined ? value : keepChip(old, value));
        changed = true;
      }
    }
    return changed ? out : before;
  };
  return {
    engine: same(previous.engine, next.engine) ? previous.engine : next.engine,
    sources: merge(previous.sources, next.sources),
    sinks: merge(previous.sinks, next.sinks),
    routes: merge(previous.routes, next.routes),
    playsOn: merge(previous.playsOn, next.playsOn),
    unknownSenders: same(previous.unknownSenders, next.unknownSenders)
      ? previous.unknownSenders
      : next.unknownSenders,
  };
}
