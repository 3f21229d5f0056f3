// Shown when the port picker was closed without choosing a port (NotFoundError): why a board may
// not be listed, and a Try again button that restarts the install flow.

import { h, openDialogShell } from './dialog-shell';

export const NO_PORT_DIALOG_TAG = 'tributary-no-port-dialog';

/** Resolves true when the user chose "Try again". */
export function openNoPortDialog(): Promise<boolean> {
  const shell = openDialogShell(NO_PORT_DIALOG_TAG, 'no-port-title');
  let retry = false;
  const tryAgain = h('button', { type: 'button', class: 'primary' }, 'Try again');
  const cancel = h('button', { type: 'button' }, 'Cancel');
  shell.body.append(
    h('h2', { id: 'no-port-title' }, 'No port selected'),
    h(
      'p',
      {},
      'To install, pick the serial port of your ESP32-S3 board in the list the browser shows.',
    ),
    h('p', {}, 'If the board is not listed:'),
    h(
      'ul',
      {},
      h('li', {}, 'Use a USB cable that carries data; some cables only charge.'),
      h(
        'li',
        {},
        'Install the driver for the board’s USB-to-serial chip (CP210x or CH34x) if your system needs one.',
      ),
      h('li', {}, 'Boards with native USB appear after holding BOOT while plugging them in.'),
    ),
    h('div', { class: 'actions' }, cancel, tryAgain),
  );
  tryAgain.addEventListener('click', () => {
    retry = true;
    shell.close();
  });
  cancel.addEventListener('click', () => shell.close());
  tryAgain.focus();
  return shell.closed.then(() => retry);
}
