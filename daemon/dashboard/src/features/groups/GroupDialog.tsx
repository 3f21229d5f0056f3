// Create Group and Edit of a group (sources or sinks): a name and its members, ticked from the
// entries of that kind (groups too: groups nest). Deleting a group never deletes its members.
import { useLive } from '../../api/hooks';
import type { Sink, Source } from '../../api/schema';
import { NameField, PlaybackFields } from '../entities/fields';
import { EntityDialog, numberOrText, saveEntry, useApiForm } from '../entities/form';

interface Props {
  readonly kind: 'source' | 'sink';
  readonly group?: Source | Sink;
}

export default function GroupDialog({ kind, group }: Props) {
  const config = useLive((s) => s.config);
  const entries: readonly (Source | Sink)[] =
    (kind === 'source' ? config?.sources : config?.sinks) ?? [];
  const form = useApiForm({
    name: group?.name ?? '',
    volume: String(group?.volume ?? 1),
    delay: String(group?.delay ?? 0),
    enabled: group?.enabled ?? true,
    group_members: group?.group_members.join('\n') ?? '',
  });
  const v = form.values;
  const members = v.group_members ? v.group_members.split('\n') : [];
  const toggle = (name: string, on: boolean) =>
    form.set(
      'group_members',
      (on ? [...members, name] : members.filter((m) => m !== name)).join('\n'),
    );
  const body = {
    name: v.name.trim(),
    is_group: true,
    group_members: members,
    volume: numberOrText(v.volume),
    delay: numberOrText(v.delay),
    enabled: v.enabled,
  };
  const save = form.submit(() => saveEntry(kind, group, body));
  const word = kind === 'source' ? 'Source' : 'Sink';
  const errors = form.errors('group_members');
  return (
    <EntityDialog
      title={group ? `Edit ${kind} group ${group.name}` : `Create ${word} Group`}
      description={`A group is used in routes like one ${kind}; its volume, equalizer and delay apply on top of each member's own.`}
      form={form}
      onSubmit={save}
      submitLabel={group ? 'Save' : 'Create group'}
    >
      <NameField form={form} />
      <fieldset className="members" aria-describedby={errors ? 'members-error' : undefined}>
        <legend>Members</legend>
        {entries.filter((e) => e.name !== group?.name).length === 0 && (
          <p className="muted">No other {kind}s yet.</p>
        )}
        {entries
          .filter((e) => e.name !== group?.name)
          .map((e) => (
            <label key={e.config_id} className="checkbox">
              <input
                type="checkbox"
                checked={members.includes(e.name)}
                onChange={(event) => toggle(e.name, event.target.checked)}
              />
              {e.name}
              {e.is_group ? ' (group)' : ''}
            </label>
          ))}
        {errors && (
          <p className="field-error" id="members-error">
            {errors.join('; ')}
          </p>
        )}
      </fieldset>
      <PlaybackFields form={form} />
    </EntityDialog>
  );
}
