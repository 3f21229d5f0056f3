import { useLive } from '../../api/hooks';
import type { Source } from '../../api/schema';
import { LevelMeter } from '../../ui/LevelMeter';

/** What the source sends into the routes (measured while a route plays it). */
export function SourceLevel({ source }: { source: Source }) {
  // One key for every card: the real sources' ids, sorted (a string, so it re-renders rarely).
  const among = useLive(
    (s) =>
      s.config?.sources
        .filter((x) => !x.is_group)
        .map((x) => x.config_id)
        .sort()
        .join(',') ?? '',
  );
  return <LevelMeter configId={source.config_id} name={source.name} kind="source" among={among} />;
}
