// <tributary-install-button manifest="…">: a Connect button that asks for a serial port, opens it
// at 115200 baud and adds an install dialog to the page; the port is closed when the dialog
// closes. Without Web Serial, or outside a secure context, it shows why instead (slots
// "unsupported" and "not-allowed" replace those texts). Disabled while it has `active`.
// Define it with defineInstallButton() in the browser; nothing runs at import time.

import { closePort } from './close-port';
import type { InstallOverrides } from './manifest';

export const INSTALL_BUTTON_TAG = 'tributary-install-button';

export const UNSUPPORTED_TEXT =
  'Your browser does not support installing things on ESP devices. Use Google Chrome or Microsoft Edge.';
export const NOT_ALLOWED_TEXT =
  'You can only install ESP devices on HTTPS websites or on the localhost.';

/** What the install button needs from the page; tests and other hosts may replace parts. */
export interface InstallHost {
  serial: () => Serial | undefined;
  secureContext: () => boolean;
  alert: (message: string) => void;
  /** Adds the install dialog to the page and resolves when it has closed. */
  openInstallDialog: (
    port: SerialPort,
    manifest: string,
    overrides: InstallOverrides,
  ) => Promise<void>;
  /** Shows the "no port selected" dialog; resolves true when the user asks to try again. */
  openNoPortDialog: () => Promise<boolean>;
}

const STYLE = `
:host { display: inline-block; }
:host([hidden]) { display: none; }
button {
  font: inherit; font-weight: 600; cursor: pointer;
  padding: 0.5rem 1.1rem; border-radius: 0.5rem; border: 1px solid transparent;
  background: var(--accent, #0b6e6e); color: var(--accent-contrast, #fff);
}
button:hover { background: var(--accent-strong, #075555); }
button:focus-visible { outline: 3px solid var(--accent, #0b6e6e); outline-offset: 2px; }
:host([active]) button, button:disabled { opacity: 0.5; cursor: not-allowed; filter: grayscale(1); }
.message { color: var(--text-muted, #47535e); }
`;

export type InstallSupport = 'supported' | 'unsupported' | 'not-allowed';

/** Whether a page can install: a secure context comes first (browsers hide Web Serial outside one). */
export function installSupportOf(
  env: Pick<InstallHost, 'serial' | 'secureContext'>,
): InstallSupport {
  if (!env.secureContext()) return 'not-allowed';
  return env.serial() ? 'supported' : 'unsupported';
}

/** Creates the element class; kept in a function so importing this module needs no DOM. */
export function createInstallButtonClass(host: () => InstallHost) {
  return class TributaryInstallButton extends HTMLElement {
    static observedAttributes = ['active'];
    /** Manifest overrides (property only). */
    overrides: InstallOverrides = {};
    private button: HTMLButtonElement | null = null;

    get manifest(): string {
      return this.getAttribute('manifest') ?? '';
    }

    set manifest(value: string) {
      this.setAttribute('manifest', value);
    }

    get active(): boolean {
      return this.hasAttribute('active');
    }

    set active(value: boolean) {
      this.toggleAttribute('active', Boolean(value));
    }

    /** What the checks found when the element was connected. */
    get support(): InstallSupport {
      return (this.getAttribute('install-support') as InstallSupport | null) ?? 'supported';
    }

    connectedCallback(): void {
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      const support = installSupportOf(host());
      this.setAttribute('install-support', support);
      root.innerHTML = `<style>${STYLE}</style>`;
      this.button = null;
      if (support !== 'supported') {
        const slot = document.createElement('slot');
        slot.name = support;
        slot.className = 'message';
        slot.textContent = support === 'not-allowed' ? NOT_ALLOWED_TEXT : UNSUPPORTED_TEXT;
        root.append(slot);
        return;
      }
      const slot = document.createElement('slot');
      slot.name = 'activate';
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('part', 'button');
      button.textContent = 'Connect';
      slot.append(button);
      root.append(slot);
      this.button = button;
      this.syncDisabled();
      slot.addEventListener('click', () => void this.connect());
    }

    attributeChangedCallback(): void {
      this.syncDisabled();
    }

    private syncDisabled(): void {
      if (!this.button) return;
      this.button.disabled = this.active;
      this.button.setAttribute('aria-disabled', String(this.active));
    }

    /** The flow: picker, open at 115200, dialog, close. Runs on each click. */
    async connect(): Promise<void> {
      if (this.active || this.support !== 'supported') return;
      const env = host();
      let port: SerialPort | undefined;
      try {
        port = await env.serial()!.requestPort();
      } catch (error) {
        if ((error as DOMException)?.name === 'NotFoundError') {
          if (await env.openNoPortDialog()) await this.connect();
          return;
        }
        env.alert(`Error: ${(error as Error)?.message ?? String(error)}`);
        return;
      }
      if (!port) return;
      try {
        await port.open({ baudRate: 115200 });
      } catch (error) {
        env.alert((error as Error)?.message ?? String(error));
        return;
      }
      this.active = true;
      try {
        await env.openInstallDialog(port, this.manifest, this.overrides);
      } finally {
        await closePort(port);
        this.active = false;
        this.button?.focus();
      }
    }
  };
}
