// /site/DesktopMenu: the compact page the Windows app shows from its tray icon. Sinks and sources
// with their volume and enable switches, and media controls for sources with a VNC host.
import { useLive } from '../../api/hooks';
import type { Sink, Source } from '../../api/schema';
import { Toasts } from '../../ui/toasts';
import { CardControls } from '../entities/CardControls';
import { MediaButtons } from '../entities/MediaButtons';

export function DesktopMenu() {
  const config = useLive((s) => s.config);
  const connection = useLive((s) => s.connection);
  return (
    <main className="desktop-menu">
      <h1 className="visually-hidden">Tributary</h1>
      {!config ? (
        <p className="loading" role="status">
          {connection === 'reconnecting' ? 'Reconnecting…' : 'Connecting…'}
        </p>
      ) : (
        <>
          <Section title="Sinks" entries={config.sinks} kind="sink" />
          <Section title="Sources" entries={config.sources} kind="source" />
        </>
      )}
      <Toasts />
    </main>
  );
}

function Section({
  title,
  entries,
  kind,
}: {
  title: string;
  entries: readonly (Sink | Source)[];
  kind: 'sink' | 'source';
}) {
  return (
    <section aria-labelledby={`menu-${kind}`}>
      <h2 id={`menu-${kind}`}>{title}</h2>
      {entries.length === 0 ? (
        <p className="muted">None yet: add them in the dashboard.</p>
      ) : (
        <ul className="menu-rows">
          {entries.map((entry) => (
            <li key={entry.config_id} className="menu-row">
              <span className="menu-row-name">{entry.name}</span>
              {kind === 'source' && (entry as Source).vnc_ip && (
                <MediaButtons source={entry.name} named />
              )}
              <CardControls kind={kind} entity={entry} compact />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
