// Create Group and Edit of a group (sources or sinks): a name and its members, ticked from the
// entries of that kind (groups too: groups nest). Deleting a group never deletes its members.
import { api } from '../../api/client';
import { useLive } from '../../api/hooks';
import type { Sink, Source } from '../../api/schema';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { closeDialog } from '../dialogs';
import { LevelFields } from '../entities/fields';
import { changedFields, FormActions, FormError, numberOrText, useApiForm } from '../entities/form';

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
  const save = form.submit(() =>
    group
      ? api.update(kind, group.name, changedFields(group, body as never) as never)
      : api.add(kind, body as never),
  );
  const word = kind === 'source' ? 'Source' : 'Sink';
  const errors = form.errors('group_members');
  return (
    <Dialog
      title={group ? `Edit ${kind} group ${group.name}` : `Create ${word} Group`}
      description={`A group is used in routes like one ${kind}; its volume, equalizer and delay apply on top of each member's own.`}
      onClose={closeDialog}
    >
      <form onSubmit={save} noValidate>
        <FormError error={form.formError} />
        <Field label="Name" errors={form.errors('name')}>
          <input {...form.text('name')} autoComplete="off" required />
        </Field>
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
        <div className="form-grid">
          <LevelFields form={form} />
        </div>
        <label className="checkbox">
          <input {...form.check('enabled')} /> Enabled
        </label>
        <FormActions busy={form.busy} submitLabel={group ? 'Save' : 'Create group'} />
      </form>
    </Dialog>
  );
}
