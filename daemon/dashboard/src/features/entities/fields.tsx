// Form fields several dialogs share: volume and delay (sources, sinks, routes, groups) and the
// sample rate (RTP sources, sinks). The API checks the values; these only collect them.
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
  errors(key: string): readonly string[] | undefined;
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
