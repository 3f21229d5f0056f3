// Form fields several dialogs share: the name, volume and delay, the Enabled switch (sources,
// sinks, routes, groups) and the sample rate (RTP sources, sinks). The API checks the values;
// these only collect them.
import type { ChangeEvent } from 'react';
import { SAMPLE_RATES } from '../../api/schema';
import { Field } from '../../ui/Field';

/** What the fields need of a form (useApiForm). */
export interface FieldForm {
  text(key: string): {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  };
  check(key: string): {
    name: string;
    type: 'checkbox';
    checked: boolean;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  errors(key: string): readonly string[] | undefined;
}

export function NameField({ form }: { form: FieldForm }) {
  return (
    <Field label="Name" errors={form.errors('name')}>
      <input {...form.text('name')} autoComplete="off" required />
    </Field>
  );
}

export function EnabledField({ form }: { form: FieldForm }) {
  return (
    <label className="checkbox">
      <input {...form.check('enabled')} /> Enabled
    </label>
  );
}

/** Volume (linear 0 to 1, as the API stores it) and delay in ms. */
export function LevelFields({ form }: { form: FieldForm }) {
  return (
    <>
      <Field label="Volume (0 to 1)" errors={form.errors('volume')}>
        <input {...form.text('volume')} type="number" step="0.01" min="0" max="1" />
      </Field>
      <Field label="Delay (ms)" errors={form.errors('delay')}>
        <input {...form.text('delay')} type="number" step="10" min="0" max="5000" />
      </Field>
    </>
  );
}

/** A TCP/UDP port (1 to 65535). */
export function PortField({
  form,
  name,
  label = 'Port',
  hint,
}: {
  form: FieldForm;
  name: string;
  label?: string;
  hint?: string;
}) {
  return (
    <Field label={label} hint={hint} errors={form.errors(name)}>
      <input {...form.text(name)} type="number" min="1" max="65535" />
    </Field>
  );
}

/** Volume and delay in a grid, then the Enabled switch (routes and groups). */
export function PlaybackFields({ form }: { form: FieldForm }) {
  return (
    <>
      <div className="form-grid">
        <LevelFields form={form} />
      </div>
      <EnabledField form={form} />
    </>
  );
}

export function SampleRateField({ form, name }: { form: FieldForm; name: string }) {
  return (
    <Field label="Sample rate" errors={form.errors(name)}>
      <select {...form.text(name)}>
        {SAMPLE_RATES.map((rate) => (
          <option key={rate} value={rate}>
            {rate} Hz
          </option>
        ))}
      </select>
    </Field>
  );
}
