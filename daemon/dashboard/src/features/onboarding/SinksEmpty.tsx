// First run, no sinks: the three ways to get a receiver.
import { openDialog } from '../dialogs';
import { docsLink, flasherLink } from './docs';

export function SinksEmpty() {
  return (
    <div className="empty">
      <p>
        <strong>No sinks yet.</strong> A sink is where audio goes:
      </p>
      <ul>
        <li>
          A <strong>Scream receiver</strong> on a PC, Raspberry Pi or Android device (port 4010):{' '}
          <a href={docsLink('install-linux-receiver')} target="_blank" rel="noreferrer">
            install one
          </a>
          , then{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => openDialog({ type: 'add-sink' })}
          >
            add it as a sink
          </button>{' '}
          with its IP.
        </li>
        <li>
          An <strong>ESP32-S3</strong> with a DAC:{' '}
          <a href={flasherLink()} target="_blank" rel="noreferrer">
            flash it from the browser
          </a>
          .
        </li>
        <li>
          <strong>This browser</strong>: add a sink with WebRTC listening on, then press Listen in
          Browser on its card.
        </li>
      </ul>
    </div>
  );
}
