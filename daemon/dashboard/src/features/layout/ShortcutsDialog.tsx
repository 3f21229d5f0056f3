import { ESCAPE, SHORTCUTS } from '../../lib/shortcuts';
import { Dialog } from '../../ui/Dialog';
import { closeDialog } from '../dialogs';

export default function ShortcutsDialog() {
  const rows = [...Object.values(SHORTCUTS), ESCAPE];
  return (
    <Dialog
      title="Keyboard shortcuts"
      description="Off while you type in a field. Media keys act on a source with a VNC host."
      onClose={closeDialog}
    >
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.label}>
              <td>
                <kbd>{s.label}</kbd>
              </td>
              <td>{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
