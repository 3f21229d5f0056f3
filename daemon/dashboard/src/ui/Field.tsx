import { cloneElement, type ReactElement, useId } from 'react';

interface Props {
  readonly label: string;
  readonly hint?: string;
  /** What the API said is wrong with this field. */
  readonly errors?: readonly string[] | undefined;
  /** One input, select or textarea; it gets the id, aria-invalid and aria-describedby. */
  readonly children: ReactElement<Record<string, unknown>>;
}

/** A labelled form control with its hint and the API's errors for it, announced with it. */
export function Field({ label, hint, errors = [], children }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, errors.length ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field" data-invalid={errors.length > 0 || undefined}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': errors.length > 0 || undefined,
        'aria-describedby': described || undefined,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p className="field-error" id={errorId}>
          {errors.join('; ')}
        </p>
      )}
    </div>
  );
}
