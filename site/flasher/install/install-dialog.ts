// The install dialog: loads the manifest and its parts, asks whether to erase the whole flash,
// then flashes with a step list and a real progress bar (bytes and percent), and ends with the
// result: the chip found, the time taken and the board's first boot log, or a message saying what
// went wrong and what to do, with Try again. It cannot be dismissed while writing.

import { formatBytes } from '../format';
import { h, openDialogShell } from './dialog-shell';
import {
  type ChipInfo,
  type FlashProgress,
  type FlashResult,
  type FlashStep,
  flashDevice,
} from './flash-device';
import { describeFlashFailure } from './flash-errors';
import {
  type FirmwareManifest,
  type FlashImage,
  fetchManifest,
  fetchParts,
  type InstallOverrides,
} from './manifest';

export const INSTALL_DIALOG_TAG = 'tributary-install-dialog';

export interface InstallDialogOptions {
  port: SerialPort;
  manifestUrl: string;
  overrides?: InstallOverrides;
  fetch?: typeof fetch;
  flash?: typeof flashDevice;
}

const hex = (n: number) => `0x${n.toString(16)}`;

const STEP_LABELS: Record<FlashStep, string> = {
  connect: 'Connect to the board and identify its chip',
  stub: 'Start the flasher on the board',
  erase: 'Erase the whole flash',
  write: 'Write and verify the firmware',
  reset: 'Restart the board',
};

const STATE_TEXT = { done: ' (done)', current: ' (in progress)', pending: '' } as const;

interface Loaded {
  manifest: FirmwareManifest;
  images: Map<string, FlashImage[]>;
}

export async function openInstallDialog(options: InstallDialogOptions): Promise<void> {
  const fetchImpl = options.fetch ?? fetch.bind(globalThis);
  const flash = options.flash ?? flashDevice;
  const overrides = options.overrides ?? {};
  const shell = openDialogShell(INSTALL_DIALOG_TAG, 'install-title');
  const log: string[] = [];
  const title = (text: string) => h('h2', { id: 'install-title', tabindex: '-1' }, text);
  const show = (...children: (Node | null | false)[]) => {
    shell.body.replaceChildren(...children.filter((c): c is Node => Boolean(c)));
    (shell.body.querySelector('[data-autofocus]') as HTMLElement | null)?.focus();
  };
  const closeButton = (label = 'Close', primary = false) => {
    const button = h(
      'button',
      { type: 'button', class: primary ? 'primary' : undefined, 'data-autofocus': primary },
      label,
    );
    button.addEventListener('click', () => shell.close());
    return button;
  };
  const logDetails = () =>
    log.length > 0 &&
    h(
      'details',
      {},
      h('summary', {}, 'Technical log'),
      h('pre', { tabindex: '0', 'aria-label': 'Technical log' }, log.join('\n')),
    );

  show(title('Preparing the firmware'), h('p', { role: 'status' }, 'Loading the firmware files…'));

  let loaded: Loaded;
  try {
    const manifest = await fetchManifest(options.manifestUrl, fetchImpl);
    const images = new Map<string, FlashImage[]>();
    for (const build of manifest.builds)
      images.set(build.chipFamily, await fetchParts(build, options.manifestUrl, fetchImpl));
    loaded = { manifest, images };
  } catch (error) {
    show(
      title('Cannot install'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        error instanceof Error ? error.message : String(error),
      ),
      h('div', { class: 'actions' }, closeButton('Close', true)),
    );
    return shell.closed;
  }

  const { manifest } = loaded;
  const fullName = manifest.version ? `${manifest.name} ${manifest.version}` : manifest.name;

  const confirm = () => {
    const build = manifest.builds[0]!;
    const parts = loaded.images.get(build.chipFamily) ?? [];
    const erase = h('input', {
      type: 'checkbox',
      id: 'erase-first',
      checked: manifest.new_install_prompt_erase === true,
    });
    const install = h(
      'button',
      { type: 'button', class: 'primary', 'data-autofocus': true },
      'Install',
    );
    install.addEventListener(
      'click',
      () => void run((erase as HTMLInputElement).checked || overrides.eraseFirst === true),
    );
    show(
      title(`Install ${fullName}`),
      h('p', {}, `The board's flash gets ${parts.length} files:`),
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'File'),
            h('th', { scope: 'col' }, 'Offset'),
            h('th', { scope: 'col', class: 'num' }, 'Size'),
          ),
        ),
        h(
          'tbody',
          {},
          ...parts.map((p) =>
            h(
              'tr',
              {},
              h('td', {}, h('code', {}, p.name)),
              h('td', {}, h('code', {}, hex(p.address))),
              h('td', { class: 'num' }, formatBytes(p.data.length)),
            ),
          ),
        ),
      ),
      overrides.eraseFirst
        ? h('p', {}, 'The whole flash is erased first.')
        : h(
            'p',
            {},
            erase,
            ' ',
            h('label', { for: 'erase-first' }, 'Erase the whole flash first'),
            h('br'),
            h(
              'span',
              { class: 'muted' },
              'Also removes the settings saved on the board (Wi-Fi, mode, audio).',
            ),
          ),
      h(
        'p',
        { class: 'muted' },
        'Keep the board connected until the install finishes; it takes about one to two minutes.',
      ),
      h('div', { class: 'actions' }, closeButton('Cancel'), install),
    );
  };

  // Leaving the page mid-write would leave the board without a bootable firmware.
  const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };
  const lock = (locked: boolean) => {
    shell.setLocked(locked);
    if (locked) window.addEventListener('beforeunload', warnBeforeLeaving);
    else window.removeEventListener('beforeunload', warnBeforeLeaving);
  };

  const run = async (erase: boolean) => {
    flashing = true;
    lock(true);
    log.length = 0;
    const steps: FlashStep[] = erase
      ? ['connect', 'stub', 'erase', 'write', 'reset']
      : ['connect', 'stub', 'write', 'reset'];
    const stepItems = new Map(
      steps.map((step) => [step, h('li', { 'data-state': 'pending' }, STEP_LABELS[step])]),
    );
    const chipLine = h('p', { class: 'muted' });
    const progressLabel = h('span', { id: 'progress-label' }, 'Waiting for the board…');
    const progress = h('progress', {
      max: '100',
      'aria-labelledby': 'progress-label',
      'aria-describedby': 'progress-detail',
    }) as HTMLProgressElement;
    const detail = h('p', { id: 'progress-detail', class: 'muted' }, '');
    const status = h('p', { role: 'status', class: 'visually-hidden' });
    show(
      title(`Installing ${fullName}`),
      h('ol', { class: 'steps' }, ...stepItems.values()),
      chipLine,
      h('p', {}, progressLabel),
      progress,
      detail,
      status,
      h('p', { class: 'muted' }, 'Do not unplug the board or close this page.'),
    );
    let current: FlashStep | null = null;
    const onProgress = (p: FlashProgress) => {
      if (p.step !== current) {
        current = p.step;
        let reached = false;
        for (const [step, item] of stepItems) {
          reached ||= step === p.step;
          const state = step === p.step ? 'current' : reached ? 'pending' : 'done';
          item.dataset.state = state;
          item.replaceChildren(
            STEP_LABELS[step],
            h('span', { class: 'visually-hidden' }, STATE_TEXT[state]),
          );
          if (step === p.step) item.setAttribute('aria-current', 'step');
          else item.removeAttribute('aria-current');
        }
        status.textContent = STEP_LABELS[p.step];
      }
      if (p.step === 'write' && p.file) {
        progressLabel.textContent = `Writing ${p.file.name} (${p.file.index + 1} of ${p.file.count}) at ${hex(p.file.address)}`;
      } else {
        progressLabel.textContent = STEP_LABELS[p.step];
      }
      // Indeterminate until bytes are being written.
      if (p.step === 'write') progress.value = p.percent;
      else if (p.step === 'reset') progress.value = 100;
      else progress.removeAttribute('value');
      detail.textContent = p.bytesTotal
        ? `${formatBytes(p.bytesWritten)} of ${formatBytes(p.bytesTotal)} (${p.percent}%)`
        : '';
    };
    const onChip = (chip: ChipInfo) => {
      chipLine.textContent = `Found ${chip.description}, MAC ${chip.mac}.`;
    };
    let result: FlashResult;
    try {
      const builds = manifest.builds.map((b) => ({
        chipFamily: b.chipFamily,
        images: loaded.images.get(b.chipFamily) ?? [],
        flashMode: overrides.flashMode ?? b.flashMode ?? 'dio',
        flashFreq: overrides.flashFreq ?? b.flashFreq ?? '80m',
        flashSize: overrides.flashSize ?? b.flashSize ?? '4MB',
      }));
      result = await flash({
        port: options.port,
        builds,
        erase,
        baudRate: overrides.baudRate,
        onProgress,
        onChip,
        onLog: (line) => log.push(line),
      });
    } catch (error) {
      flashing = false;
      lock(false);
      const failure = describeFlashFailure(error);
      const again = h(
        'button',
        { type: 'button', class: 'primary', 'data-autofocus': true },
        'Try again',
      );
      again.addEventListener('click', () => confirm());
      show(
        title('Installation failed'),
        h('p', { class: 'error', role: 'alert' }, failure.message),
        chipLine.textContent ? chipLine : null,
        logDetails(),
        h('div', { class: 'actions' }, closeButton(), again),
      );
      return;
    }
    flashing = false;
    lock(false);
    const seconds = (result.writeMs / 1000).toFixed(1);
    show(
      title(`Installed ${fullName}`),
      h(
        'p',
        { class: 'success', role: 'status' },
        'The firmware is written and verified, and the board has restarted into it.',
      ),
      h('p', {}, `${result.chip.description}, MAC ${result.chip.mac}.`),
      h(
        'p',
        { class: 'muted' },
        `Wrote ${formatBytes(result.bytesWritten)} in ${seconds} s at ${result.baudRate} baud.`,
      ),
      Boolean(result.bootLog) &&
        h(
          'details',
          {},
          h('summary', {}, 'Boot log'),
          h('pre', { tabindex: '0', 'aria-label': 'Boot log' }, result.bootLog.replace(/\r/g, '')),
        ),
      logDetails(),
      h('div', { class: 'actions' }, closeButton('Close', true)),
    );
  };

  // Unplugged while the dialog waits (during a write flashDevice() reports it itself).
  let flashing = false;
  const unplugged = () => {
    if (flashing) return;
    show(
      title('The board was disconnected'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        'The board was unplugged. Plug it back in, then press Connect again.',
      ),
      h('div', { class: 'actions' }, closeButton('Close', true)),
    );
  };
  options.port.addEventListener?.('disconnect', unplugged);
  void shell.closed.then(() => options.port.removeEventListener?.('disconnect', unplugged));

  confirm();
  return shell.closed;
}
