// The app's pages: the dashboard at `/`, the compact desktop menu at /site/DesktopMenu (fetched
// by the Windows app), a source's desktop at /vnc/{source} (lazy: noVNC loads only there), the
// login when the server wants its API token.
import { lazy, Suspense, useEffect } from 'react';
import { useLive } from '../api/hooks';
import { live } from '../api/live';
import { DesktopMenu } from '../features/desktop-menu/DesktopMenu';
import { Dashboard } from '../features/layout/Dashboard';
import { Login } from './Login';
import { DESKTOP_MENU_PATH, VNC_PATH } from './paths';

export { DESKTOP_MENU_PATH, VNC_PATH };

const VncViewer = lazy(() => import('../features/vnc/VncViewer'));

export function App() {
  const connection = useLive((s) => s.connection);
  useEffect(() => {
    live.start();
    return () => live.stop();
  }, []);
  if (connection === 'unauthorized') return <Login />;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  if (path === DESKTOP_MENU_PATH) return <DesktopMenu />;
  if (path === '/' || path === '/index.html') return <Dashboard />;
  if (path.startsWith(VNC_PATH) && path.length > VNC_PATH.length) {
    return (
      <Suspense fallback={<p className="loading">Loading the VNC viewer…</p>}>
        <VncViewer name={decodeURIComponent(path.slice(VNC_PATH.length))} />
      </Suspense>
    );
  }
  return <NotFound />;
}

function NotFound() {
  return (
    <main className="login">
      <div className="login-card">
        <h1>Page not found</h1>
        <p>
          There is no page at <code>{location.pathname}</code>. <a href="/">Open the dashboard</a>.
        </p>
      </div>
    </main>
  );
}
