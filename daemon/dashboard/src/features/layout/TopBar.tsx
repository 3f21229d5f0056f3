// The navigation bar: mark, search over all panels (`/` focuses it), the live connection's state,
// dark mode (remembered) and the shortcut list (`?`).
import type { RefObject } from 'react';
import { useLive } from '../../api/hooks';
import type { Connection } from '../../api/live';
import { clearToken, hasToken } from '../../app/auth';
import { DESKTOP, useMediaQuery } from '../../app/media-query';
import { useTheme } from '../../app/theme';
import { KeyboardIcon, Mark, SearchIcon } from '../../ui/icons';
import { Switch } from '../../ui/Switch';
import { openDialog } from '../dialogs';
import { searchQuery } from './registry';
import { ViewSwitch } from './ViewSwitch';

const CONNECTION_WORDS: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Signed out',
};

interface Props {
  readonly searchRef: RefObject<HTMLInputElement | null>;
}

export function TopBar({ searchRef }: Props) {
  const query = searchQuery.useValue();
  const onQuery = searchQuery.set;
  const connection = useLive((s) => s.connection);
  const [theme, setTheme] = useTheme();
  const desktop = useMediaQuery(DESKTOP);
  return (
    <header className="topbar">
      <h1 className="brand">
        <Mark />
        <span>Tributary</span>
      </h1>
      <search className="search">
        <label htmlFor="search" className="visually-hidden">
          Search sources, routes and sinks
        </label>
        <SearchIcon />
        <input
          ref={searchRef}
          id="search"
          type="search"
          placeholder="Search  ( / )"
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query) {
              event.preventDefault();
              onQuery('');
            }
          }}
          autoComplete="off"
        />
      </search>
      <div className="topbar-end">
        {desktop && <ViewSwitch />}
        <span className="connection" data-state={connection} role="status">
          <span className="connection-dot" aria-hidden="true" />
          <span className="connection-text">{CONNECTION_WORDS[connection]}</span>
        </span>
        <Switch
          label="Dark mode"
          showLabel
          checked={theme === 'dark'}
          onChange={(on) => setTheme(on ? 'dark' : 'light')}
        />
        <button
          type="button"
          className="icon-button"
          aria-label="Keyboard shortcuts"
          aria-keyshortcuts="Shift+?"
          onClick={() => openDialog({ type: 'shortcuts' })}
        >
          <KeyboardIcon />
        </button>
        {hasToken() && (
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => {
              clearToken();
              location.reload();
            }}
          >
            Sign out
          </button>
        )}
      </div>
    </header>
  );
}
