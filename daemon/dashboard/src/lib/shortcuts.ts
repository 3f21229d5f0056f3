// The keyboard shortcuts, as the UI guide and the product spec document them. The overlay (`?`)
// lists this table and the hook binds it, so the two cannot disagree.

export interface Shortcut {
  /** react-hotkeys-hook key names. */
  readonly keys: string;
  /** How the overlay shows the key. */
  readonly label: string;
  readonly action: string;
}

export const SHORTCUTS = {
  playPause: { keys: 'space', label: 'Space', action: 'Play or pause the active source' },
  previous: { keys: 'left', label: '←', action: 'Previous track' },
  next: { keys: 'right', label: '→', action: 'Next track' },
  volumeUp: { keys: 'up', label: '↑', action: 'Volume of the active source up (2 dB)' },
  volumeDown: { keys: 'down', label: '↓', action: 'Volume of the active source down (2 dB)' },
  mute: { keys: 'm', label: 'M', action: 'Mute or unmute the active source' },
  visualizer: {
    keys: 'h',
    label: 'H',
    action: 'Next visualizer style (waveform, spectrum, bars); click it for fullscreen',
  },
  search: { keys: 'slash', label: '/', action: 'Search' },
  help: { keys: 'shift+slash', label: '?', action: 'Show these shortcuts' },
} as const satisfies Record<string, Shortcut>;

/** Esc is Radix's: it closes the open dialog or menu. */
export const ESCAPE: Shortcut = {
  keys: 'escape',
  label: 'Esc',
  action: 'Close a dialog or menu; leave the fullscreen visualizer',
};

/**
 * Shortcuts stay off while typing in a field, and keys a focused control uses itself (Space on
 * a button or switch, arrows on a slider, tab or menu) are left to that control.
 */
export function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) {
    return true;
  }
  if (target.closest('[role="dialog"], [role="alertdialog"], [role="menu"]')) return true;
  const arrows = key.startsWith('Arrow');
  // Sliders, tabs and radios move with arrows; so does a drag handle (dnd-kit's keyboard drag).
  const arrowControls =
    '[role="slider"], [role="tab"], [role="radio"], [role="option"], [aria-roledescription]';
  if (arrows && target.closest(arrowControls)) {
    return true;
  }
  if (key === ' ' && target.closest('button, a, [role="switch"], [role="checkbox"], summary')) {
    return true;
  }
  return false;
}
