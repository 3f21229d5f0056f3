'use client';
// The ESP32-S3 flasher: the firmware releases (newest first, the first expanded and badged
// Latest), downloading and extracting a release's firmware in the page, and the install button
// that flashes it over Web Serial. Loaded lazily by app/esp32-flasher/page.tsx, in the browser
// only; esptool-js and jszip load on first use.

import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { type BrowserSupport, detectBrowser } from './browser-support';
import { downloadFirmware } from './firmware/download';
import {
  type BlobUrls,
  browserBlobUrls,
  type ManifestHandle,
  tributaryManifest,
} from './firmware/manifest-url';
import { type FirmwareStatus, READY, TOAST_ERROR_MS, TOAST_SUCCESS_MS } from './firmware/status';
import styles from './flasher.module.css';
import { browserInstallHost, defineInstallButton } from './install/define';
import { type InstallHost, installSupportOf } from './install/install-button';
import { type FetchLike, type ReleaseSource, releaseSource } from './releases/config';
import { type FirmwareRelease, fetchReleases } from './releases/releases';
import { afterNextPaint } from './ui/after-next-paint';
import { type DownloadProgress, ReleaseRow } from './ui/release-row';
import { Toasts, useToasts } from './ui/toasts';

export interface FlasherAppProps {
  /** Replaceable for tests; the page uses the build-time settings and the browser's own. */
  source?: ReleaseSource;
  fetch?: FetchLike;
  userAgent?: string;
  blobUrls?: BlobUrls;
  /** Where Web Serial and the secure context are checked (the browser's own by default). */
  installHost?: Pick<InstallHost, 'serial' | 'secureContext'>;
}

type ListState =
  | { kind: 'loading' }
  | { kind: 'loaded'; releases: FirmwareRelease[] }
  | { kind: 'error'; message: string };

export default function FlasherApp(props: FlasherAppProps) {
  const source = props.source ?? releaseSource();
  const fetchImpl = props.fetch ?? ((url, init) => fetch(url, init));
  const blobUrls = props.blobUrls ?? browserBlobUrls;
  const [browser] = useState<BrowserSupport>(() =>
    detectBrowser(props.userAgent ?? navigator.userAgent),
  );
  // The install button shows why it cannot install instead; the connect hint is then wrong.
  const [canInstall] = useState(
    () => installSupportOf(props.installHost ?? browserInstallHost()) === 'supported',
  );
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [statuses, setStatuses] = useState<Record<string, FirmwareStatus>>({});
  const [manifests, setManifests] = useState<Record<string, ManifestHandle>>({});
  const [received, setReceived] = useState<Record<string, DownloadProgress>>({});
  const manifestsRef = useRef(manifests);
  manifestsRef.current = manifests;
  const { toasts, show, dismiss } = useToasts();

  useEffect(() => defineInstallButton(), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the list loads once per source
  useEffect(() => {
    const abort = new AbortController();
    fetchReleases(source, fetchImpl, abort.signal).then(
      (releases) => {
        setList({ kind: 'loaded', releases });
        setExpanded(new Set(releases.slice(0, 1).map((r) => r.tag)));
      },
      (error: Error) => {
        if (abort.signal.aborted) return;
        setList({ kind: 'error', message: error.message });
        show({
          kind: 'error',
          title: 'Error loading releases',
          message: error.message,
          durationMs: TOAST_ERROR_MS,
        });
      },
    );
    return () => abort.abort();
  }, [source.proxy, source.releasesUrl]);

  useEffect(
    () => () => {
      for (const m of Object.values(manifestsRef.current)) m.release();
    },
    [],
  );

  const setStatus = useCallback(
    (tag: string, status: FirmwareStatus) => setStatuses((s) => ({ ...s, [tag]: status })),
    [],
  );

  const download = async (release: FirmwareRelease) => {
    try {
      const images = await downloadFirmware(release, {
        proxy: source.proxy,
        fetch: fetchImpl,
        // Each status is committed and painted before the download moves on (React would
        // otherwise batch "Downloading firmware..." away with the next one).
        onStage: (stage) => {
          flushSync(() => setStatus(release.tag, { kind: stage }));
          return afterNextPaint();
        },
        onProgress: (bytes, total) =>
          setReceived((r) => ({ ...r, [release.tag]: { received: bytes, total } })),
      });
      const handle = tributaryManifest(images, release.version, blobUrls);
      setManifests((m) => {
        m[release.tag]?.release();
        return { ...m, [release.tag]: handle };
      });
      setStatus(release.tag, { kind: 'ready-to-flash', images });
      show({
        kind: 'success',
        title: 'Firmware ready',
        message: 'Firmware extracted and ready to flash to your device',
        durationMs: TOAST_SUCCESS_MS,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setStatus(release.tag, { kind: 'error', message });
      show({ kind: 'error', title: 'Download failed', message, durationMs: TOAST_ERROR_MS });
    }
  };

  const toggle = (tag: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(tag)) next.add(tag);
      return next;
    });

  const releases = (
    <section className={styles.releases} aria-labelledby="firmware-releases">
      <h2 id="firmware-releases">Firmware releases</h2>
      {list.kind === 'error' && (
        <div className={styles.errorAlert} role="alert">
          <p className={styles.errorTitle}>Could not load the firmware releases</p>
          <p>{list.message}</p>
        </div>
      )}
      {list.kind === 'loading' && <p role="status">Loading firmware releases…</p>}
      {list.kind === 'loaded' && list.releases.length === 0 && (
        <p>No firmware releases have been published yet.</p>
      )}
      {list.kind === 'loaded' && list.releases.length > 0 && (
        <ul className={styles.releaseList}>
          {list.releases.map((release, i) => (
            <ReleaseRow
              key={release.tag}
              release={release}
              latest={i === 0}
              expanded={expanded.has(release.tag)}
              status={statuses[release.tag] ?? READY}
              manifestUrl={manifests[release.tag]?.url ?? null}
              canInstall={canInstall}
              downloadProgress={received[release.tag] ?? null}
              onToggle={() => toggle(release.tag)}
              onDownload={() => void download(release)}
            />
          ))}
        </ul>
      )}
    </section>
  );

  return (
    <div className={styles.flasher}>
      {!browser.supported && (
        <div className={styles.warning} role="note" aria-labelledby="browser-warning">
          <p id="browser-warning" className={styles.warningTitle}>
            This browser cannot flash ESP32 boards
          </p>
          <p>
            Flashing needs Web Serial, which only desktop Google Chrome and Microsoft Edge provide.
            You are using {browser.name}. Open this page in Chrome or Edge on a computer to install
            the firmware.
          </p>
        </div>
      )}
      {browser.supported ? (
        releases
      ) : (
        <details className={styles.incompatible}>
          <summary>Attempt Flash from Incompatible Browser</summary>
          {releases}
        </details>
      )}
      <Toasts toasts={toasts} onDismiss={dismiss} />
    </div>
  );
}
