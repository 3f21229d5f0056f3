// Edit: the add form of the entry's kind, filled in with the entry as it is now.
import type { Kind } from '../../api/client';
import { useLive } from '../../api/hooks';
import { Dialog } from '../../ui/Dialog';
import { closeDialog } from '../dialogs';
import GroupDialog from '../groups/GroupDialog';
import RouteDialog from '../routes/RouteDialog';
import SinkDialog from '../sinks/SinkDialog';
import SourceDialog from '../sources/SourceDialog';
import { useEntity } from './use-entity';

export default function EditDialog({ kind, name }: { kind: Kind; name: string }) {
  // The entry as it was when the dialog opened: a change elsewhere does not rewrite the form.
  const entity = useEntity(kind, name, true);
  const loaded = useLive((s) => s.config !== null);
  if (!entity) return loaded ? <Gone kind={kind} name={name} /> : null;
  if (kind === 'route') return <RouteDialog route={entity as never} />;
  if ('is_group' in entity && entity.is_group) {
    return <GroupDialog kind={kind as 'source' | 'sink'} group={entity} />;
  }
  return kind === 'source' ? (
    <SourceDialog source={entity as never} />
  ) : (
    <SinkDialog sink={entity as never} />
  );
}

export function Gone({ kind, name }: { kind: Kind; name: string }) {
  return (
    <Dialog title={`No ${kind} ${name}`} onClose={closeDialog}>
      <p>It was deleted or renamed meanwhile (perhaps from another device).</p>
    </Dialog>
  );
}
