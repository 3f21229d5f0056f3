// Delay of a source, sink or route: -10 ms / +10 ms apply at once (every click: each steps from
// the one before, lib/steps.ts); a typed value on Save. The
// total along a path adds up and is capped at 5000 ms by the engine.
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage, type Kind } from '../../api/client';
import { DELAY_MAX_MS, DELAY_MIN_MS } from '../../api/schema';
import { withoutPath } from '../../lib/problems';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { closeDialog } from '../dialogs';
import { setDelay, stepDelay } from './actions';
import { Gone } from './EditDialog';
import { numberOrText } from './form';
import { useEntity } from './use-entity';

const STEP_MS = 10;

export default function DelayDialog({ kind, name }: { kind: Kind; name: string }) {
  const entity = useEntity(kind, name);
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!entity) return <Gone kind={kind} name={name} />;
  const value = typed ?? String(entity.delay);

  const apply = async (change: () => Promise<unknown>) => {
    setError(null);
    try {
      await change();
      setTyped(null);
    } catch (failure) {
      const detail =
        failure instanceof ApiError ? failure.details.find((d) => d.path === 'delay') : undefined;
      setError(detail ? withoutPath(detail) : errorMessage(failure));
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void apply(() => setDelay(kind, entity.name, numberOrText(value) as number));
  };
  return (
    <Dialog
      title={`Delay of ${name}`}
      description="Delays of every level on a path add up; use it to line rooms up."
      onClose={closeDialog}
    >
      <form onSubmit={save} noValidate>
        <div className="delay-row">
          <button
            type="button"
            className="button button-secondary"
            disabled={entity.delay <= DELAY_MIN_MS}
            onClick={() => apply(() => stepDelay(kind, entity, -STEP_MS))}
          >
            −10 ms
          </button>
          <Field label="Delay (ms)" errors={error ? [error] : undefined}>
            <input
              type="number"
              min={DELAY_MIN_MS}
              max={DELAY_MAX_MS}
              step={STEP_MS}
              value={value}
              onChange={(event) => setTyped(event.target.value)}
            />
          </Field>
          <button
            type="button"
            className="button button-secondary"
            disabled={entity.delay >= DELAY_MAX_MS}
            onClick={() => apply(() => stepDelay(kind, entity, STEP_MS))}
          >
            +10 ms
          </button>
        </div>
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={closeDialog}>
            Close
          </button>
          <button type="submit" className="button" disabled={typed === null}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
