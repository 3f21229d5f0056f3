// Registers the install button in the browser (never at import time, never on the server). The
// checks for Web Serial and a secure context run each time a button connects to the page.

import { createInstallButtonClass, INSTALL_BUTTON_TAG, type InstallHost } from './install-button';
import { openInstallDialog } from './install-dialog';
import { openNoPortDialog } from './no-port-dialog';

export function browserInstallHost(): InstallHost {
  return {
    serial: () => (navigator as Navigator & { serial?: Serial }).serial,
    secureContext: () => window.isSecureContext,
    alert: (message) => window.alert(message),
    openInstallDialog: (port, manifest, overrides) =>
      openInstallDialog({ port, manifestUrl: manifest, overrides }),
    openNoPortDialog,
  };
}

export function defineInstallButton(host: () => InstallHost = browserInstallHost): void {
  if (typeof window === 'undefined' || !window.customElements) return;
  if (customElements.get(INSTALL_BUTTON_TAG)) return;
  customElements.define(INSTALL_BUTTON_TAG, createInstallButtonClass(host));
}
