// A group's level meter, from its members' levels (nested groups opened). A source group's
// combines its member sources' as the engine measures each where it enters the routes (the
// group plays their mix: loudest peak, power sum of RMS); a sink group's shows its loudest
// member sink's (each member sends the same mix at its own volume, so nothing adds up).
import { useLive } from '../../api/hooks';
import type { Sink, Source } from '../../api/schema';
import { groupLeaves } from '../../lib/levels';
import { LevelMeter } from '../../ui/LevelMeter';

export function GroupLevel({
  group,
  kind = 'source',
}: {
  group: Source | Sink;
  kind?: 'source' | 'sink';
}) {
  // A string, so the card re-renders only when the members change.
  const members = useLive((s) =>
    groupLeaves(group, (kind === 'source' ? s.config?.sources : s.config?.sinks) ?? []).join(','),
  );
  return (
    <LevelMeter
      configId={group.config_id}
      name={group.name}
      kind={kind}
      members={members ? members.split(',') : []}
    />
  );
}
