// A sink's level meter: one bar per channel (peak, with the RMS darker inside), from the shared
// /ws/levels?detail=meter feed, with a peak meter's ballistics (rises at once, falls 24 dB/s), which
// the reading it announces follows too. Drawn by writing styles on its own elements, so 30 messages a
// second never re-render React.
import { useEffect, useRef } from 'react';
import { levelFeed } from '../api/levels';
import { fallTowards, formatDb, meterFraction } from '../lib/levels';

const MAX_BARS = 8;

export function LevelMeter({ configId, name }: { configId: string; name: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const bars = [...root.querySelectorAll<HTMLElement>('.level-bar')];
    const shown = new Array<number>(MAX_BARS).fill(0);
    let at = performance.now();
    return levelFeed('detail=meter').subscribe((message) => {
      const levels = message.sinks.find((s) => s.config_id === configId);
      const now = performance.now();
      const elapsed = (now - at) / 1000;
      at = now;
      const peaks = levels?.peak ?? [];
      let loudest = 0;
      bars.forEach((bar, c) => {
        const peak = peaks[c];
        bar.hidden = peak === undefined;
        if (peak === undefined) return;
        shown[c] = fallTowards(shown[c] ?? 0, peak, elapsed);
        loudest = Math.max(loudest, shown[c]!);
        bar.style.setProperty('--peak', String(meterFraction(shown[c]!)));
        bar.style.setProperty('--rms', String(meterFraction(levels?.rms[c] ?? 0)));
      });
      root.dataset.peak = loudest.toFixed(4);
      root.setAttribute('aria-valuenow', String(Math.round(meterFraction(loudest) * 60 - 60)));
      root.setAttribute('aria-valuetext', formatDb(loudest));
    });
  }, [configId]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: one value for several channels' bars; <meter> draws one bar and holds no children
    <div
      ref={ref}
      className="level-meter"
      role="meter"
      aria-label={`Level sent to ${name}`}
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
