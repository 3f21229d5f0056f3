// The keys the VNC viewer's buttons send to the remote computer (X11 keysyms, as RFB wants them),
// as the UI guide lists them: Space, Left and Right control playback there; Ctrl+Alt+Del and
// Alt+F4 go to its system. F11 is the viewer's own fullscreen.
export const KEYSYM = {
  space: 0x0020,
  left: 0xff51,
  right: 0xff53,
  altLeft: 0xffe9,
  f4: 0xffc1,
} as const;

export interface KeySender {
  sendKey(keysym: number, code: string | null, down?: boolean): void;
}

/** Presses and releases one key. */
export function tap(rfb: KeySender, keysym: number, code: string): void {
  rfb.sendKey(keysym, code);
}

/** Alt+F4: Alt held while F4 is pressed and released. */
export function altF4(rfb: KeySender): void {
  rfb.sendKey(KEYSYM.altLeft, 'AltLeft', true);
  rfb.sendKey(KEYSYM.f4, 'F4');
  rfb.sendKey(KEYSYM.altLeft, 'AltLeft', false);
}
