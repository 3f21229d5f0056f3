// The desktop of a source's computer (/vnc/{source}, opened in a new tab by the VNC buttons):
// noVNC's RFB client over the daemon's /ws/vnc/{source} bridge, scaled to the window, with
// buttons for the documented keys (Space, Left, Right for playback; Ctrl+Alt+Del; Alt+F4; F11
// for fullscreen) and a password form when the VNC server asks for one. Loaded only here.
import RFB from '@novnc/novnc';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Source } from '../../api/schema';
import { failure } from './failure';
import { altF4, KEYSYM, tap } from './keys';

type Status =
  | { kind: 'connecting' }
  | { kind: 'connected' }
  | { kind: 'password' }
  | { kind: 'ended'; text: string };

export default function VncViewer({ name }: { name: string }) {
  // Read once with a plain request: this page needs nothing else of the live store (which would
  // also pull shared modules out of the dashboard's first-load bundle).
  const [source, setSource] = useState<Source | null | undefined>(undefined);
  const loaded = source !== undefined;
  const screenRef = useRef<HTMLDivElement>(null);
  const rfbRef = useRef<RFB | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const host = source?.vnc_ip ? `${source.vnc_ip}:${source.vnc_port ?? 5900}` : null;

  useEffect(() => {
    document.title = `${name}: desktop (VNC) · Tributary`;
    fetch(`/sources/${encodeURIComponent(name)}`, { credentials: 'same-origin' })
      .then(async (res) => setSource(res.ok ? ((await res.json()) as Source) : null))
      .catch(() => setSource(null));
  }, [name]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how Reconnect connects again
  useEffect(() => {
    const screen = screenRef.current;
    if (!screen || !host) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/ws/vnc/${encodeURIComponent(name)}`;
    setStatus({ kind: 'connecting' });
    // Our own socket, so the reason the daemon closes it with can be shown (noVNC only logs it).
    const socket = new WebSocket(url);
    let closed: { code: number; reason: string } | null = null;
    socket.addEventListener('close', (event) => {
      closed = { code: event.code, reason: event.reason };
    });
    const rfb = new RFB(screen, socket, { shared: true });
    rfb.scaleViewport = true;
    rfb.background = 'transparent';
    rfbRef.current = rfb;
    rfb.addEventListener('connect', () => {
      setStatus({ kind: 'connected' });
      rfb.focus();
    });
    rfb.addEventListener('credentialsrequired', () => setStatus({ kind: 'password' }));
    rfb.addEventListener('securityfailure', (event) => {
      const reason = (event as CustomEvent<{ reason?: string }>).detail?.reason;
      setStatus({
        kind: 'ended',
        text: `The VNC server refused the login${reason ? `: ${reason}` : ''}.`,
      });
    });
    rfb.addEventListener('disconnect', (event) => {
      const clean = (event as CustomEvent<{ clean: boolean }>).detail?.clean;
      const text = clean ? 'Disconnected.' : failure(closed, name, host);
      setStatus((now) => (now.kind === 'ended' ? now : { kind: 'ended', text }));
    });
    return () => {
      rfbRef.current = null;
      rfb.disconnect();
    };
  }, [name, host, attempt]);

  const send = (action: (rfb: RFB) => void) => () => {
    const rfb = rfbRef.current;
    if (!rfb) return;
    action(rfb);
    rfb.focus();
  };
  const fullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  const login = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = new FormData(event.currentTarget).get('password');
    rfbRef.current?.sendCredentials({ password: String(password ?? '') });
    setStatus({ kind: 'connecting' });
  };

  if (loaded && !source) {
    return <Message text={`There is no source named ${name}.`} />;
  }
  if (loaded && !host) {
    return <Message text={`${name} has no VNC host: set its vnc_ip in the dashboard (Edit).`} />;
  }
  const connected = status.kind === 'connected';
  return (
    <div className="vnc">
      <header className="vnc-bar">
        <h1>
          {name} <span className="muted">{host}</span>
        </h1>
        <p className="vnc-status" role="status">
          {status.kind === 'connecting' && 'Connecting…'}
          {status.kind === 'connected' && 'Connected'}
          {status.kind === 'password' && 'The VNC server asks for a password.'}
          {status.kind === 'ended' && status.text}
        </p>
        <fieldset className="vnc-keys">
          <legend className="visually-hidden">Keys for the remote computer</legend>
          <button
            type="button"
            className="button button-small"
            disabled={!connected}
            onClick={send((r) => tap(r, KEYSYM.space, 'Space'))}
          >
            Play/Pause (Space)
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={!connected}
            onClick={send((r) => tap(r, KEYSYM.left, 'ArrowLeft'))}
          >
            Previous (←)
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={!connected}
            onClick={send((r) => tap(r, KEYSYM.right, 'ArrowRight'))}
          >
            Next (→)
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={!connected}
            onClick={send((r) => r.sendCtrlAltDel())}
          >
            Ctrl+Alt+Del
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={!connected}
            onClick={send(altF4)}
          >
            Alt+F4
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={fullscreen}
          >
            Fullscreen (F11)
          </button>
          {status.kind === 'ended' && (
            <button
              type="button"
              className="button button-small"
              onClick={() => setAttempt((a) => a + 1)}
            >
              Reconnect
            </button>
          )}
        </fieldset>
        {status.kind === 'password' && (
          <form className="vnc-login" onSubmit={login}>
            <label htmlFor="vnc-password">VNC password</label>
            <input
              id="vnc-password"
              name="password"
              type="password"
              autoComplete="current-password"
            />
            <button type="submit" className="button button-small">
              Connect
            </button>
          </form>
        )}
      </header>
      <div ref={screenRef} className="vnc-screen" data-testid="vnc-screen" />
    </div>
  );
}

function Message({ text }: { text: string }) {
  return (
    <main className="login">
      <div className="login-card">
        <h1>No desktop to show</h1>
        <p>
          {text} <a href="/">Open the dashboard</a>.
        </p>
      </div>
    </main>
  );
}
