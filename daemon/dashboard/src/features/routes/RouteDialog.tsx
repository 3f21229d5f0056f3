// Add Route and Edit of a route: a source (or source group) and a sink (or sink group) picked
// from lists, named after them unless the user names it.
import { useState } from 'react';
import { useLive } from '../../api/hooks';
import type { Route } from '../../api/schema';
import { routeName } from '../../lib/names';
import { Field } from '../../ui/Field';
import { PlaybackFields } from '../entities/fields';
import { EntityDialog, numberOrText, saveEntry, useApiForm } from '../entities/form';

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
  const save = form.submit(() => saveEntry('route', route, body));
  const option = (e: { name: string; is_group: boolean }) => (
    <option key={e.name} value={e.name}>
      {e.name}
      {e.is_group ? ' (group)' : ''}
    </option>
  );
  const name = form.text('name');
  return (
    <EntityDialog
      title={route ? `Edit route ${route.name}` : 'Add Route'}
      form={form}
      onSubmit={save}
      submitLabel={route ? 'Save' : 'Add route'}
    >
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
      <PlaybackFields form={form} />
    </EntityDialog>
  );
}
