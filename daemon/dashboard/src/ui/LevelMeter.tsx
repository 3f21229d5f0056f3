// A sink's level meter (or the active source's): one bar per channel (peak, with the RMS darker
// inside), from the page's /ws/levels socket (every sink's meter shares one subscription to all
// sinks' meters; a source's subscribes to it), with a peak meter's ballistics (rises at once, falls 24 dB/s),
// which the reading it announces follows too. Drawn by writing CSS variables on its own elements
// (composited transforms), only when a bar moves by a visible step, so 30 messages a second
// never re-render React; the reading for screen readers changes at most 4 times a second. A
// source group's meter combines its member sources' (the loudest peak, the power sum of RMS); a
// sink group's shows its loudest member sink's.
import { useEffect, useRef } from 'react';
import { levelSocket } from '../api/levels';
import { combineLevels, fallTowards, formatDb, loudestLevels, meterFraction } from '../lib/levels';

const MAX_BARS = 8;
/** The smallest change of a bar worth a style update (of the bar's width). */
const STEP = 0.004;
const ANNOUNCE_MS = 250;

export function LevelMeter({
  configId,
  name,
  kind = 'sink',
  members,
  among,
}: {
  configId: string;
  name: string;
  /** A sink's meter shows what it sends; a source's, what it sends into the routes. */
  kind?: 'sink' | 'source';
  /** A group's: the config_ids of the members it plays, combined (combineLevels for sources,
   * loudestLevels for sinks). */
  members?: readonly string[];
  /** A source's: the config_ids to subscribe for (every source card shares one subscription of
   * all sources, as a socket takes at most 32). */
  among?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const memberIds = members?.join(',');
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const bars = [...root.querySelectorAll<HTMLElement>('.level-bar')];
    const shown = new Array<number>(MAX_BARS).fill(0);
    const drawn = bars.map(() => ({ peak: -1, rms: -1, hidden: true }));
    let at = performance.now();
    let announcedAt = 0;
    let announced = '';
    // Every sink's meter (a sink group's too) shares one subscription (all sinks); a source's
    // names it, a source group's its members.
    const group = memberIds === undefined ? null : new Set(memberIds.split(',').filter(Boolean));
    const source = group ? [...group].sort().join(',') : (among ?? configId);
    if (kind === 'source' && !source) return; // A group with no member: nothing to measure.
    const query = kind === 'sink' ? {} : { source };
    return levelSocket().subscribe({ ...query, detail: 'meter' }, (message) => {
      const all = kind === 'sink' ? message.sinks : message.sources;
      const levels = group
        ? (kind === 'sink' ? loudestLevels : combineLevels)(
            all.filter((s) => group.has(s.config_id)),
          )
        : all.find((s) => s.config_id === configId);
      const now = performance.now();
      const elapsed = (now - at) / 1000;
      at = now;
      const peaks = levels?.peak ?? [];
      let loudest = 0;
      bars.forEach((bar, c) => {
        const peak = peaks[c];
        const last = drawn[c]!;
        const hidden = peak === undefined;
        if (hidden !== last.hidden) {
          bar.hidden = hidden;
          last.hidden = hidden;
        }
        if (hidden) return;
        shown[c] = fallTowards(shown[c] ?? 0, peak, elapsed);
        loudest = Math.max(loudest, shown[c]!);
        const p = meterFraction(shown[c]!);
        const r = meterFraction(levels?.rms[c] ?? 0);
        if (Math.abs(p - last.peak) >= STEP || (p === 0) !== (last.peak === 0)) {
          bar.style.setProperty('--peak', p.toFixed(3));
          last.peak = p;
        }
        if (Math.abs(r - last.rms) >= STEP || (r === 0) !== (last.rms === 0)) {
          bar.style.setProperty('--rms', r.toFixed(3));
          last.rms = r;
        }
      });
      const text = formatDb(loudest);
      if (text !== announced && (now - announcedAt >= ANNOUNCE_MS || text === 'silent')) {
        announced = text;
        announcedAt = now;
        root.dataset.peak = loudest.toFixed(4);
        root.setAttribute('aria-valuenow', String(Math.round(meterFraction(loudest) * 60 - 60)));
        root.setAttribute('aria-valuetext', text);
      }
    });
  }, [configId, kind, memberIds, among]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: one value for several channels' bars; <meter> draws one bar and holds no children
    <div
      ref={ref}
      className="level-meter"
      role="meter"
      aria-label={kind === 'sink' ? `Level sent to ${name}` : `Level of ${name}`}
      aria-valuemin={-60}
      aria-valuemax={0}
      aria-valuenow={-60}
      aria-valuetext="silent"
      data-peak="0"
    >
      {Array.from({ length: MAX_BARS }, (_, c) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed bar per channel
        <span key={c} className="level-bar" hidden />
      ))}
    </div>
  );
}
