// Delete, after a confirmation. When the API refuses (409: a route or a group still uses it) the
// dialog stays open and says what uses it, in the API's words; after a delete, Undo is offered.
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { ApiError, errorMessage, type Kind } from '../../api/client';
import { closeDialog } from '../dialogs';
import { deleteWithUndo, KIND_WORD } from './actions';
import { Gone } from './EditDialog';
import { useEntity } from './use-entity';

export default function DeleteDialog({ kind, name }: { kind: Kind; name: string }) {
  const entity = useEntity(kind, name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!entity) return <Gone kind={kind} name={name} />;
  const group = 'is_group' in entity && entity.is_group;
  const what = `${KIND_WORD[kind]}${group ? ' group' : ''}`;

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteWithUndo(kind, entity);
      closeDialog();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 409
          ? `${failure.message}. Delete or change ${failure.message.includes(',') ? 'those' : 'that'} first.`
          : errorMessage(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && closeDialog()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">
            Delete {what} {name}?
          </AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">
            {group ? 'Its members are kept. ' : ''}You can undo this for a few seconds afterwards.
          </AlertDialog.Description>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="form-actions">
            <AlertDialog.Cancel className="button button-secondary">Cancel</AlertDialog.Cancel>
            <button
              type="button"
              className="button button-danger"
              onClick={confirm}
              disabled={busy}
            >
              {busy ? 'Deleting…' : 'Delete'}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
