// What needs attention above the panels: the engine not running (with its reason), what it left
// out or refused, a fault it recovered from lately, problems it reported, and senders it hears that no source matches, each one click from being a source.
import { useLive } from '../../api/hooks';
import type { UnknownSender } from '../../api/schema';
import { engineNotices } from '../../lib/engine-notices';
import { addUnknownSender } from '../entities/actions';

function describe(sender: UnknownSender): string {
  const what = sender.format ?? (sender.kind === 'rtp' ? 'RTP' : 'Scream');
  const tag = sender.tag ? `, ${sender.tag}` : '';
  return `${sender.address}${tag} (${what}, port ${sender.port})`;
}

export function Banners() {
  const engine = useLive((s) => s.activity.engine);
  const unknown = useLive((s) => s.activity.unknownSenders);
  return (
    <div className="banners">
      {engineNotices(engine).map((notice) => (
        <p
          key={notice.key}
          className={`banner banner-${notice.tone}`}
          role={notice.tone === 'danger' ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      ))}
      {engine?.state === 'off' && (
        <p className="banner">
          The audio engine is off (the server runs with ENGINE=off): changes are saved, nothing
          plays.
        </p>
      )}
      {engine?.problems.map((problem) => (
        <p key={problem} className="banner banner-warning">
          {problem}
        </p>
      ))}
      {unknown.length > 0 && (
        <ul className="banner banner-note unknown-senders" aria-label="Unknown senders">
          {unknown.slice(0, 3).map((sender) => (
            <li key={`${sender.kind}-${sender.address}-${sender.port}-${sender.tag}`}>
              <span>Audio arriving from {describe(sender)}</span>
              <button
                type="button"
                className="button button-small"
                onClick={() => void addUnknownSender(sender)}
              >
                Add as source
                <span className="visually-hidden"> ({sender.tag ?? sender.address})</span>
              </button>
            </li>
          ))}
          {unknown.length > 3 && <li>and {unknown.length - 3} more senders</li>}
        </ul>
      )}
    </div>
  );
}
