// A source group's level meter: its member sources' levels (nested groups opened) combined,
// as the engine measures each member where it enters the routes.
import { useLive } from '../../api/hooks';
import type { Source } from '../../api/schema';
import { groupLeaves } from '../../lib/levels';
import { LevelMeter } from '../../ui/LevelMeter';

export function GroupLevel({ group }: { group: Source }) {
  // A string, so the card re-renders only when the members change.
  const members = useLive((s) => groupLeaves(group, s.config?.sources ?? []).join(','));
  return (
    <LevelMeter
      configId={group.config_id}
      name={group.name}
      kind="source"
      members={members ? members.split(',') : []}
    />
  );
}
