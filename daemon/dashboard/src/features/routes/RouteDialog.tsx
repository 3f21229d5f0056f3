// Add Route and Edit of a route: a source (or source group) and a sink (or sink group) picked
// from lists, named after them unless the user names it.
import { useState } from 'react';
import { api } from '../../api/client';
import { useLive } from '../../api/hooks';
import type { Route, RouteInput } from '../../api/schema';
import { routeName } from '../../lib/names';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { closeDialog } from '../dialogs';
import { LevelFields } from '../entities/fields';
import { changedFields, FormActions, FormError, numberOrText, useApiForm } from '../entities/form';

interface Props {
  readonly route?: Route;
  readonly initial?: { source?: string; sink?: string };
}

export default function RouteDialog({ route, initial }: Props) {
  const config = useLive((s) => s.config);
  const sources = config?.sources ?? [];
  const sinks = config?.sinks ?? [];
  const source = route?.source ?? initial?.source ?? sources[0]?.name ?? '';
  const sink = route?.sink ?? initial?.sink ?? sinks[0]?.name ?? '';
  const form = useApiForm({
    name: route?.name ?? (source && sink ? routeName(source, sink) : ''),
    source,
    sink,
    volume: String(route?.volume ?? 1),
    delay: String(route?.delay ?? 0),
    enabled: route?.enabled ?? true,
  });
  // Until the user types a name, it follows the source and sink.
  const [named, setNamed] = useState(route !== undefined);
  const v = form.values;
  const pick = (key: 'source' | 'sink', value: string) => {
    form.set(key, value);
    if (!named) {
      const next = { source: v.source, sink: v.sink, [key]: value };
      form.set('name', routeName(next.source, next.sink));
    }
  };
  const body = {
    name: v.name.trim(),
    source: v.source,
    sink: v.sink,
    volume: numberOrText(v.volume),
    delay: numberOrText(v.delay),
    enabled: v.enabled,
  };
  const save = form.submit(() =>
    route
      ? api.update('route', route.name, changedFields(route, body as never) as never)
      : api.add('route', body as unknown as RouteInput),
  );
  const option = (e: { name: string; is_group: boolean }) => (
    <option key={e.name} value={e.name}>
      {e.name}
      {e.is_group ? ' (group)' : ''}
    </option>
  );
  const name = form.text('name');
  return (
    <Dialog title={route ? `Edit route ${route.name}` : 'Add Route'} onClose={closeDialog}>
      <form onSubmit={save} noValidate>
        <FormError error={form.formError} />
        <Field label="Source" errors={form.errors('source')}>
          <select name="source" value={v.source} onChange={(e) => pick('source', e.target.value)}>
            {sources.map(option)}
          </select>
        </Field>
        <Field label="Sink" errors={form.errors('sink')}>
          <select name="sink" value={v.sink} onChange={(e) => pick('sink', e.target.value)}>
            {sinks.map(option)}
          </select>
        </Field>
        <Field label="Name" errors={form.errors('name')}>
          <input
            {...name}
            autoComplete="off"
            onChange={(event) => {
              setNamed(true);
              name.onChange(event);
            }}
          />
        </Field>
        <div className="form-grid">
          <LevelFields form={form} />
        </div>
        <label className="checkbox">
          <input {...form.check('enabled')} /> Enabled
        </label>
        <FormActions busy={form.busy} submitLabel={route ? 'Save' : 'Add route'} />
      </form>
    </Dialog>
  );
}
