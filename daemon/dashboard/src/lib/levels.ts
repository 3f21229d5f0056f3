// Pure helpers for level meters and the visualizer: decibels, the meter's scale, and the
// spectrum's band frequencies (as the engine spaces them: log-spaced, 20 Hz to 20 kHz or half
// the sample rate).

/** The bottom of the meters' scale, dBFS. */
export const METER_FLOOR_DB = -60;

/** A linear level (1.0 is full scale) in dBFS; -Infinity for silence. */
export function toDb(linear: number): number {
  return linear > 0 ? 20 * Math.log10(linear) : Number.NEGATIVE_INFINITY;
}

/** Where a level sits on a meter, 0 (at or below the floor) to 1 (full scale). */
export function meterFraction(linear: number, floorDb = METER_FLOOR_DB): number {
  const db = toDb(linear);
  if (!(db > floorDb)) return 0;
  return Math.min(1, 1 - db / floorDb);
}

/** How a level reads: "-12.3 dB", or "silent" below the floor. */
export function formatDb(linear: number, floorDb = METER_FLOOR_DB): string {
  const db = toDb(linear);
  return db > floorDb ? `${db.toFixed(1)} dB` : 'silent';
}

/** The centre frequency of band `b` of `count` bands at `sampleRate`. */
export function bandCentreHz(b: number, count: number, sampleRate: number): number {
  const high = Math.min(20_000, sampleRate / 2);
  return 20 * (high / 20) ** ((b + 0.5) / count);
}

/**
 * A meter's falling edge: rises at once, falls at `dbPerSecond` (the ballistics of a peak
 * meter), so a level that flickers at 30 Hz still reads steadily.
 */
export function fallTowards(shown: number, target: number, elapsedS: number, dbPerSecond = 24) {
  if (target >= shown) return target;
  const fallen = shown * 10 ** (-(dbPerSecond * elapsedS) / 20);
  return Math.max(target, fallen);
}

/** Averages `values` into `count` groups (the visualizer's bars from 64 bands). */
export function group(values: readonly number[], count: number): number[] {
  if (values.length === 0) return new Array<number>(count).fill(0);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * values.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * values.length) / count));
    let max = Number.NEGATIVE_INFINITY;
    for (let k = from; k < to; k++) max = Math.max(max, values[k] ?? max);
    out.push(max);
  }
  return out;
}

/** One measurement's per-channel peak and RMS (linear). */
export interface ChannelLevels {
  readonly peak: readonly number[];
  readonly rms: readonly number[];
}

/**
 * Members' levels folded per channel: the loudest peak, and the RMS values folded by `rms`
 * (from 0). `null` when no member was measured.
 */
function foldLevels(
  members: readonly ChannelLevels[],
  rms: (acc: number, r: number) => number,
  finish: (acc: number) => number = (x) => x,
): ChannelLevels | null {
  if (members.length === 0) return null;
  const channels = Math.max(...members.map((m) => m.peak.length));
  const peak = new Array<number>(channels).fill(0);
  const acc = new Array<number>(channels).fill(0);
  for (const m of members) {
    m.peak.forEach((p, c) => {
      peak[c] = Math.max(peak[c]!, p);
    });
    m.rms.forEach((r, c) => {
      acc[c] = rms(acc[c]!, r);
    });
  }
  return { peak, rms: acc.map(finish) };
}

/**
 * A source group's level from its members' (the engine measures each member; a group plays
 * their mix): per channel, the loudest member's peak, and the RMS of independent signals summed,
 * the square root of the sum of their squares. `null` when no member was measured.
 */
export function combineLevels(members: readonly ChannelLevels[]): ChannelLevels | null {
  return foldLevels(members, (power, r) => power + r * r, Math.sqrt);
}

/**
 * A sink group's level from its member sinks' (each sends the group's mix at its own volume and
 * equalizer, so the signals are the same, not independent): per channel, the loudest member's
 * peak and the loudest member's RMS. `null` when no member was measured.
 */
export function loudestLevels(members: readonly ChannelLevels[]): ChannelLevels | null {
  return foldLevels(members, Math.max);
}

/** What a group is made of: its members by name, nested groups opened, each leaf once. */
interface Groupable {
  readonly name: string;
  readonly config_id: string;
  readonly is_group: boolean;
  readonly group_members: readonly string[];
}

/** The config_ids of the entries a group plays, through nested groups (a cycle stops). */
export function groupLeaves(group: Groupable, all: readonly Groupable[]): string[] {
  const byName = new Map(all.map((e) => [e.name, e]));
  const leaves = new Set<string>();
  const seen = new Set<string>();
  const open = (entry: Groupable) => {
    if (seen.has(entry.name)) return;
    seen.add(entry.name);
    if (!entry.is_group) {
      leaves.add(entry.config_id);
      return;
    }
    for (const name of entry.group_members) {
      const member = byName.get(name);
      if (member) open(member);
    }
  };
  open(group);
  return [...leaves];
}
