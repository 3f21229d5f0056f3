'use client';
// One firmware release: a disclosure header (version, date, Latest badge, status) and, expanded,
// the Changes line, the status badge and the download or install button.

import { useId } from 'react';
import { type FirmwareStatus, isBusy, showsInstall, statusText } from '../firmware/status';
import styles from '../flasher.module.css';
import { formatBytes } from '../format';
import type { FirmwareRelease } from '../releases/releases';

const dateFormat = new Intl.DateTimeFormat('en', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

export function formatReleaseDate(date: Date | null): string {
  return date ? dateFormat.format(date) : 'Unknown date';
}

export interface DownloadProgress {
  received: number;
  total: number | null;
}

export interface ReleaseRowProps {
  release: FirmwareRelease;
  latest: boolean;
  expanded: boolean;
  status: FirmwareStatus;
  manifestUrl: string | null;
  /** Web Serial in a secure context: the install button connects (else it says why not). */
  canInstall: boolean;
  downloadProgress?: DownloadProgress | null;
  onToggle: () => void;
  onDownload: () => void;
}

function badgeClass(status: FirmwareStatus): string {
  if (status.kind === 'error') return styles.badgeError!;
  if (status.kind === 'ready-to-flash') return styles.badgeSuccess!;
  if (isBusy(status)) return styles.badgeBusy!;
  return styles.badgeNeutral!;
}

export function ReleaseRow({
  release,
  latest,
  expanded,
  status,
  manifestUrl,
  canInstall,
  downloadProgress,
  onToggle,
  onDownload,
}: ReleaseRowProps) {
  const panelId = useId();
  const busy = isBusy(status);
  return (
    <li className={styles.row} data-version={release.version}>
      <h3 className={styles.rowHeading}>
        <button
          type="button"
          className={styles.rowToggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
        >
          <span className={styles.chevron} aria-hidden="true" />
          <span className={styles.rowVersion}>Version {release.version}</span>
          <span className={styles.rowDate}>{formatReleaseDate(release.publishedAt)}</span>
          {latest && <span className={`${styles.badge} ${styles.badgeLatest}`}>Latest</span>}
        </button>
      </h3>
      <div id={panelId} className={styles.rowPanel} hidden={!expanded}>
        <dl className={styles.facts}>
          <div>
            <dt>Version</dt>
            <dd>
              <code>{release.version}</code>
            </dd>
          </div>
          <div>
            <dt>Published</dt>
            <dd>
              {release.publishedAt ? (
                <time dateTime={release.publishedAt.toISOString()}>
                  {formatReleaseDate(release.publishedAt)}
                </time>
              ) : (
                'Unknown date'
              )}
            </dd>
          </div>
          <div>
            <dt>Changes</dt>
            <dd>{release.changes}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <span
                className={`${styles.badge} ${badgeClass(status)}`}
                role="status"
                aria-live="polite"
              >
                {statusText(status)}
              </span>
            </dd>
          </div>
        </dl>
        <div className={styles.actions}>
          {!showsInstall(status) && (
            <button
              type="button"
              className={styles.primaryButton}
              onClick={onDownload}
              disabled={busy}
            >
              {busy ? 'Downloading…' : `Download firmware ${release.version}`}
            </button>
          )}
          {status.kind === 'downloading-zip' && downloadProgress && (
            <span className={styles.download}>
              <progress
                aria-label={`Download of firmware ${release.version}`}
                max={downloadProgress.total ?? undefined}
                value={downloadProgress.total ? downloadProgress.received : undefined}
              />
              <span>
                {downloadProgress.total
                  ? `${formatBytes(downloadProgress.received)} of ${formatBytes(downloadProgress.total)}`
                  : formatBytes(downloadProgress.received)}
              </span>
            </span>
          )}
          {showsInstall(status) && manifestUrl && (
            <div className={styles.install}>
              <tributary-install-button manifest={manifestUrl} />
              {canInstall && (
                <p className={styles.hint}>
                  Connect the ESP32-S3 over USB, then pick its serial port.
                </p>
              )}
            </div>
          )}
        </div>
      </div>
    </li>
  );
}
