// The VNC button of a source with a VNC host: its desktop in the viewer, in a new tab (by its
// config_id when its name cannot be in a URL).
import { segment } from '../../api/addresses';
import { VNC_PATH } from '../../app/paths';

export function VncLink({ source, named = false }: { source: string; named?: boolean }) {
  return (
    <a
      className="button button-small button-secondary vnc-link"
      href={`${VNC_PATH}${segment('sources', source)}`}
      target="_blank"
      rel="noopener"
      aria-label={named ? `VNC: desktop of ${source} (new tab)` : 'VNC: desktop (new tab)'}
    >
      VNC
    </a>
  );
}
