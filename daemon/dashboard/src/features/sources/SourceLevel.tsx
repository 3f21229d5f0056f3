import { useLive } from '../../api/hooks';
import type { Source } from '../../api/schema';
import { LevelMeter } from '../../ui/LevelMeter';

/** The real sources' ids, sorted and joined, once per configuration (every card's selector runs
 * on every store change: 30 stats messages a second with 32 cards made it 960 sorts a second). */
const amongOf = new WeakMap<readonly Source[], string>();
function realSourceIds(sources: readonly Source[]): string {
  let among = amongOf.get(sources);
  if (among === undefined) {
    among = sources
      .filter((x) => !x.is_group)
      .map((x) => x.config_id)
      .sort()
      .join(',');
    amongOf.set(sources, among);
  }
  return among;
}

/** What the source sends into the routes (measured while a route plays it). */
export function SourceLevel({ source }: { source: Source }) {
  // One key for every card: the real sources' ids, sorted (a string, so it re-renders rarely).
  const among = useLive((s) => (s.config ? realSourceIds(s.config.sources) : ''));
  return <LevelMeter configId={source.config_id} name={source.name} kind="source" among={among} />;
}
