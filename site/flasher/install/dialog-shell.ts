// A modal dialog added to the page: a host element with its own shadow root (so the page's styles
// and ours stay apart) holding a native <dialog>, which gives focus trapping, Escape and the modal
// role. It removes itself when closed. Colours follow the site's CSS variables when present.

export const DIALOG_STYLE = `
dialog {
  font: inherit; color: var(--text, #182026); background: var(--bg, #fff);
  border: 1px solid var(--border, #d5dde3); border-radius: 0.75rem;
  box-shadow: 0 10px 40px rgb(0 0 0 / 25%);
  width: min(36rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); padding: 1.25rem 1.5rem;
}
dialog::backdrop { background: rgb(0 0 0 / 45%); }
h2 { font-size: 1.25rem; margin: 0 0 0.75rem; }
p { margin: 0.5rem 0; line-height: 1.5; }
.actions { display: flex; gap: 0.5rem; justify-content: flex-end; margin-top: 1.25rem; flex-wrap: wrap; }
button {
  font: inherit; cursor: pointer; padding: 0.45rem 1rem; border-radius: 0.5rem;
  border: 1px solid var(--border, #d5dde3); background: var(--bg-soft, #f3f6f8); color: inherit;
}
button.primary { background: var(--accent, #0b6e6e); color: var(--accent-contrast, #fff); border-color: transparent; font-weight: 600; }
button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid var(--accent, #0b6e6e); outline-offset: 2px; }
.muted { color: var(--text-muted, #47535e); }
.error { color: var(--danger, #b3261e); background: var(--danger-bg, #fcebea); padding: 0.6rem 0.8rem; border-radius: 0.5rem; }
.success { color: var(--tip, #1d7044); background: var(--tip-bg, #e8f6ee); padding: 0.6rem 0.8rem; border-radius: 0.5rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.95em; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--border, #d5dde3); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: var(--bg-code, #f1f4f6); padding: 0.6rem; border-radius: 0.4rem; max-height: 12rem; overflow: auto; white-space: pre-wrap; }
ol.steps { padding-left: 1.4rem; margin: 0.5rem 0; }
ol.steps li { margin: 0.2rem 0; }
ol.steps li[data-state="done"]::marker { color: var(--tip, #1d7044); }
ol.steps li[data-state="done"]::after { content: " ✓"; color: var(--tip, #1d7044); }
ol.steps li[aria-current="step"] { font-weight: 600; }
ol.steps li[data-state="pending"] { color: var(--text-muted, #47535e); }
progress { width: 100%; height: 1rem; accent-color: var(--accent, #0b6e6e); }
label { cursor: pointer; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export interface DialogShell {
  host: HTMLElement;
  dialog: HTMLDialogElement;
  /** Where the dialog's content goes. */
  body: HTMLElement;
  /** Resolves once the dialog has closed and left the page. */
  closed: Promise<void>;
  close(): void;
  /** While set, Escape does not close the dialog (e.g. during a write). */
  setLocked(locked: boolean): void;
}

export function openDialogShell(tag: string, titleId: string): DialogShell {
  const host = document.createElement(tag);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = DIALOG_STYLE;
  const dialog = document.createElement('dialog');
  dialog.setAttribute('aria-labelledby', titleId);
  const body = document.createElement('div');
  dialog.append(body);
  root.append(style, dialog);
  document.body.append(host);

  let locked = false;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    host.remove();
    resolveClosed();
  };
  dialog.addEventListener('cancel', (event) => {
    if (locked) event.preventDefault();
  });
  dialog.addEventListener('close', finish, { once: true });
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');

  return {
    host,
    dialog,
    body,
    closed,
    close: () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      finish();
    },
    setLocked: (value) => {
      locked = value;
    },
  };
}

type Child = Node | string | null | undefined | false;

/** A tiny element builder for the dialogs. */
export function h(
  tag: string,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}
