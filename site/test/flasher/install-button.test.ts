import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import {
  createInstallButtonClass,
  type InstallHost,
  NOT_ALLOWED_TEXT,
  UNSUPPORTED_TEXT,
} from '@/flasher/install/install-button';

// One element class, registered once; each test swaps the environment it sees.
let env: InstallHost;
type Button = HTMLElement & {
  connect(): Promise<void>;
  active: boolean;
  manifest: string;
  overrides: object;
};

beforeAll(() => {
  customElements.define(
    'test-install-button',
    createInstallButtonClass(() => env),
  );
});

function fakePort(openError?: Error) {
  let open = false;
  const port = {
    get readable() {
      return open ? ({} as ReadableStream) : null;
    },
    writable: null,
    open: jest.fn(async (_options: { baudRate: number }) => {
      if (openError) throw openError;
      open = true;
    }),
    close: jest.fn(async () => {
      open = false;
    }),
  };
  return port;
}

function environment(
  overrides: Partial<InstallHost> = {},
  picks: unknown[] = [],
): InstallHost & { requestPort: jest.Mock } {
  const requestPort = jest.fn(async () => {
    const next = picks.shift();
    if (next instanceof Error) throw next;
    return next;
  });
  return {
    serial: () => ({ requestPort }) as unknown as Serial,
    secureContext: () => true,
    alert: jest.fn(),
    openInstallDialog: jest.fn(async () => {}),
    openNoPortDialog: jest.fn(async () => false),
    requestPort,
    ...overrides,
  };
}

function mount(html = ''): Button {
  const element = document.createElement('test-install-button') as Button;
  element.innerHTML = html;
  element.setAttribute('manifest', 'blob:manifest');
  document.body.append(element);
  return element;
}

const shadowButton = (el: Button) => el.shadowRoot!.querySelector('button');
const notFound = () =>
  Object.assign(new Error('No port selected by the user.'), { name: 'NotFoundError' });

describe('install button: support checks', () => {
  test('shows a Connect button when Web Serial and a secure context are there', () => {
    env = environment();
    const el = mount();
    expect(shadowButton(el)?.textContent).toBe('Connect');
    expect(el.getAttribute('install-support')).toBe('supported');
  });

  test('says the browser is unsupported without navigator.serial', () => {
    env = environment({ serial: () => undefined });
    const el = mount();
    expect(shadowButton(el)).toBeNull();
    const slot = el.shadowRoot!.querySelector('slot[name="unsupported"]')!;
    expect(slot.textContent).toBe(UNSUPPORTED_TEXT);
  });

  test('asks for HTTPS outside a secure context, even where serial exists', () => {
    env = environment({ secureContext: () => false });
    const el = mount();
    expect(el.shadowRoot!.querySelector('slot[name="not-allowed"]')!.textContent).toBe(
      NOT_ALLOWED_TEXT,
    );
  });

  test('both texts can be replaced by slotted content', () => {
    env = environment({ serial: () => undefined });
    const el = mount('<p slot="unsupported">Open this page in Chrome</p>');
    const slot = el.shadowRoot!.querySelector('slot[name="unsupported"]') as HTMLSlotElement;
    expect(slot.assignedElements().map((e) => e.textContent)).toEqual(['Open this page in Chrome']);
  });

  test('checks when connected, not when the class was defined', () => {
    env = environment({ serial: () => undefined });
    const early = mount();
    env = environment();
    const late = mount();
    expect(early.getAttribute('install-support')).toBe('unsupported');
    expect(late.getAttribute('install-support')).toBe('supported');
  });
});

describe('install button: active', () => {
  test('is disabled and greyed while it has the active attribute', async () => {
    env = environment();
    const el = mount();
    el.setAttribute('active', '');
    expect(shadowButton(el)!.disabled).toBe(true);
    expect(shadowButton(el)!.getAttribute('aria-disabled')).toBe('true');
    await el.connect();
    expect((env as ReturnType<typeof environment>).requestPort).not.toHaveBeenCalled();
    el.removeAttribute('active');
    expect(shadowButton(el)!.disabled).toBe(false);
  });
});

describe('install button: flow', () => {
  test('picker, open at 115200, dialog with manifest and overrides, close when the dialog closes', async () => {
    const port = fakePort();
    let activeDuringDialog = false;
    let openDuringDialog = false;
    let el: Button;
    env = environment(
      {
        openInstallDialog: jest.fn(async () => {
          activeDuringDialog = el.active;
          openDuringDialog = port.readable !== null;
        }),
      },
      [port],
    );
    el = mount();
    el.overrides = { baudRate: 460800 };
    shadowButton(el)!.click();
    await new Promise((r) => setTimeout(r, 0));
    expect(port.open).toHaveBeenCalledWith({ baudRate: 115200 });
    expect(env.openInstallDialog).toHaveBeenCalledWith(
      port as unknown as SerialPort,
      'blob:manifest',
      { baudRate: 460800 },
    );
    expect([activeDuringDialog, openDuringDialog]).toEqual([true, true]);
    expect(port.close).toHaveBeenCalledTimes(1);
    expect(el.active).toBe(false);
  });

  test('a cancelled picker offers a retry that restarts the flow', async () => {
    const port = fakePort();
    env = environment({ openNoPortDialog: jest.fn(async () => true) }, [notFound(), port]);
    await mount().connect();
    expect(env.openNoPortDialog).toHaveBeenCalledTimes(1);
    expect((env as ReturnType<typeof environment>).requestPort).toHaveBeenCalledTimes(2);
    expect(env.openInstallDialog).toHaveBeenCalledTimes(1);
  });

  test('declining the retry ends the flow without an alert', async () => {
    env = environment({}, [notFound()]);
    await mount().connect();
    expect(env.openNoPortDialog).toHaveBeenCalledTimes(1);
    expect(env.alert).not.toHaveBeenCalled();
    expect(env.openInstallDialog).not.toHaveBeenCalled();
  });

  test('other picker errors alert "Error: {message}"', async () => {
    const error = Object.assign(
      new Error('Must be handling a user gesture to show a permission request.'),
      { name: 'SecurityError' },
    );
    env = environment({}, [error]);
    await mount().connect();
    expect(env.alert).toHaveBeenCalledWith(
      'Error: Must be handling a user gesture to show a permission request.',
    );
    expect(env.openNoPortDialog).not.toHaveBeenCalled();
  });

  test('an open failure alerts its message and adds no dialog', async () => {
    const port = fakePort(
      Object.assign(new Error('Failed to open serial port.'), { name: 'NetworkError' }),
    );
    env = environment({}, [port]);
    const el = mount();
    await el.connect();
    expect(env.alert).toHaveBeenCalledWith('Failed to open serial port.');
    expect(env.openInstallDialog).not.toHaveBeenCalled();
    expect(el.active).toBe(false);
  });

  test('no port picked otherwise ends silently', async () => {
    env = environment({}, [undefined]);
    await mount().connect();
    expect(env.alert).not.toHaveBeenCalled();
    expect(env.openInstallDialog).not.toHaveBeenCalled();
    expect(env.openNoPortDialog).not.toHaveBeenCalled();
  });
});
