// The keyboard shortcuts (lib/shortcuts.ts): media keys and volume of the active source, mute,
// search and the shortcut list. Off while typing, and keys a focused control needs are its own.
import type { RefObject } from 'react';
import { type Options, useHotkeys } from 'react-hotkeys-hook';
import type { Source } from '../api/schema';
import { openDialog } from '../features/dialogs';
import { media, stepVolume, toggleMute } from '../features/entities/actions';
import { ownsKey, SHORTCUTS } from '../lib/shortcuts';
import { toast } from '../ui/toasts';

const options: Options = {
  ignoreEventWhen: (event) => ownsKey(event.target, event.key),
  preventDefault: true,
};

function needsMediaHost(source: Source | null): source is Source {
  if (source?.vnc_ip) return true;
  toast({
    title: 'No media keys for this source',
    description: source
      ? `${source.name} has no VNC host (vnc_ip) to send media keys to. Set one in Edit.`
      : 'Add a source first.',
  });
  return false;
}

export function useShortcuts(active: Source | null, search: RefObject<HTMLInputElement | null>) {
  useHotkeys(
    SHORTCUTS.playPause.keys,
    () => needsMediaHost(active) && void media(active.name, 'play'),
    options,
    [active],
  );
  useHotkeys(
    SHORTCUTS.previous.keys,
    () => needsMediaHost(active) && void media(active.name, 'prevtrack'),
    options,
    [active],
  );
  useHotkeys(
    SHORTCUTS.next.keys,
    () => needsMediaHost(active) && void media(active.name, 'nexttrack'),
    options,
    [active],
  );
  useHotkeys(
    [SHORTCUTS.volumeUp.keys, SHORTCUTS.volumeDown.keys],
    (event) => {
      if (!active) return;
      void stepVolume('source', active, event.key === 'ArrowUp' ? 1 : -1).catch(() => undefined);
    },
    options,
    [active],
  );
  useHotkeys(SHORTCUTS.mute.keys, () => active && void toggleMute('source', active), options, [
    active,
  ]);
  useHotkeys('/', () => search.current?.focus(), { ...options, useKey: true }, [search]);
  useHotkeys('?', () => openDialog({ type: 'shortcuts' }), {
    ...options,
    useKey: true,
    ignoreModifiers: true,
  });
}
