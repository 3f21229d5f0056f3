// A group card's members, opened: each member's name with its own level meter (a member that is
// a group shows its group meter), so one sees which member sends or plays.
import { useLive } from '../../api/hooks';
import type { Sink, Source } from '../../api/schema';
import { LevelMeter } from '../../ui/LevelMeter';
import { SourceLevel } from '../sources/SourceLevel';
import { GroupLevel } from './GroupLevel';

export function MemberLevels({ group, kind }: { group: Source | Sink; kind: 'source' | 'sink' }) {
  const entries = useLive((s) => (kind === 'source' ? s.config?.sources : s.config?.sinks));
  if (group.group_members.length === 0) return <p className="card-meta">No members yet.</p>;
  const byName = new Map<string, Source | Sink>((entries ?? []).map((e) => [e.name, e]));
  return (
    <ul className="member-levels" aria-label="Members">
      {group.group_members.map((name) => {
        const member = byName.get(name);
        return (
          <li key={name} className="member-level">
            <span className="member-name">{name}</span>
            {member?.is_group ? (
              <GroupLevel group={member} kind={kind} />
            ) : member && kind === 'source' ? (
              <SourceLevel source={member as Source} />
            ) : member ? (
              <LevelMeter configId={member.config_id} name={name} />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
