// What every add and edit form shares: string values for the inputs, one request on Save, and the
// API's answer placed next to the fields it names. A failed save keeps the form open with every
// value as typed; the API validates (the form does not second-guess it), so its rule is what shows.
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { ApiError, api, type EntityTypes, errorMessage, type Kind } from '../../api/client';
import { placeProblems } from '../../lib/problems';
import { Dialog } from '../../ui/Dialog';
import { toast } from '../../ui/toasts';
import { closeDialog } from '../dialogs';
import { revealCard } from '../layout/registry';

export type FormValues = Record<string, string | boolean>;

export function useApiForm<V extends FormValues>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const details = error instanceof ApiError ? error.details : [];
  const placed = placeProblems(details, Object.keys(initial));

  const set = <K extends keyof V>(key: K, value: V[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  return {
    values,
    set,
    busy,
    /** value/onChange of a text input, number input or select. */
    text: (key: keyof V & string) => ({
      name: key,
      value: String(values[key]),
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
        set(key, event.target.value as V[typeof key]),
    }),
    /** checked/onChange of a checkbox. */
    check: (key: keyof V & string) => ({
      name: key,
      type: 'checkbox' as const,
      checked: Boolean(values[key]),
      onChange: (event: ChangeEvent<HTMLInputElement>) =>
        set(key, event.target.checked as V[typeof key]),
    }),
    errors: (key: keyof V & string) => placed.byField[key],
    /** The API's message and the problems no field shows. */
    formError: error === null ? null : { message: errorMessage(error), other: placed.other },
    /** Sends one request; closes the dialog when it succeeds, keeps it open with the error if not. */
    submit: (request: () => Promise<unknown>) => async (event: FormEvent) => {
      event.preventDefault();
      setBusy(true);
      setError(null);
      try {
        await request();
        closeDialog();
      } catch (failure) {
        setError(failure);
      } finally {
        setBusy(false);
      }
    },
  };
}

/** The message above the fields when a save failed. */
export function FormError({
  error,
}: {
  error: { message: string; other: readonly string[] } | null;
}) {
  if (!error) return null;
  return (
    <div className="form-error" role="alert">
      <p>{error.message}</p>
      {error.other.length > 0 && (
        <ul>
          {error.other.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function FormActions({
  busy,
  submitLabel,
  children,
}: {
  busy: boolean;
  submitLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions">
      {children}
      <button type="button" className="button button-secondary" onClick={closeDialog}>
        Cancel
      </button>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Saving…' : submitLabel}
      </button>
    </div>
  );
}

/** An add or edit dialog: its form with the API's message on top, the fields, Cancel and Save. */
export function EntityDialog({
  title,
  description,
  wide,
  form,
  onSubmit,
  submitLabel,
  children,
}: {
  title: string;
  description?: string;
  wide?: boolean;
  form: { formError: Parameters<typeof FormError>[0]['error']; busy: boolean };
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} description={description} onClose={closeDialog} wide={wide}>
      <form onSubmit={onSubmit} noValidate>
        <FormError error={form.formError} />
        {children}
        <FormActions busy={form.busy} submitLabel={submitLabel} />
      </form>
    </Dialog>
  );
}

/** Saves a dialog's entry: a POST of `body` when adding, a PUT of what changed when editing
 * `before` (the API validates either). */
export async function saveEntry<K extends Kind>(
  kind: K,
  before: EntityTypes[K]['entity'] | undefined,
  body: object,
): Promise<EntityTypes[K]['entity']> {
  const saved = before
    ? await api.update(kind, before.name, changedFields(before, body as never) as never)
    : await api.add(kind, body as EntityTypes[K]['input']);
  // Every save says so, and brings its card into view (a new one lands at the end of its list).
  const what = 'is_group' in saved && saved.is_group ? `${kind} group` : kind;
  toast({ title: `${before ? 'Saved' : 'Added'} ${what} ${saved.name}` });
  revealCard(saved.config_id);
  return saved;
}

/** An input's text as the API value: a number when it reads as one, else the text (the API says why not). */
export function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

/** Empty means null (no address, no tag, any payload type). */
export function nullable(text: string): string | null {
  return text.trim() === '' ? null : text.trim();
}

export function nullableNumber(text: string): number | string | null {
  return text.trim() === '' ? null : numberOrText(text);
}

/** Only the fields that differ from the entry as it is (a partial update). */
export function changedFields<T extends object>(before: T, after: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(after) as [keyof T, T[keyof T]][]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}
