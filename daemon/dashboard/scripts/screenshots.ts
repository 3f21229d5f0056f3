// `npm run screenshots -w daemon/dashboard`: the UI guide's screenshots, taken from the real app
// on a real daemon (engine on, loopback only) with the realistic house of the e2e tests
// (e2e/harness/realistic-house.ts: 8 sources, 10 sinks, 8 routes, two groups, a tone playing), at
// 1440x900 (light and dark) and 390x844 (phone), written as PNG to content/docs/images/, made
// small with pngquant when it is installed (Debian: pngquant), else with a 128-colour palette by
// ffmpeg (under 80 KB each). The run fails, before writing a picture, when the page is wider than
// its window (a broken layout is never committed). Re-run after a visible change to the
// dashboard and commit the images.
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { ready, start } from '../e2e/harness/dashboard';
import {
  type RealisticHouse,
  realisticHouse,
  realisticSourceIp,
} from '../e2e/harness/realistic-house';

const out = fileURLToPath(new URL('../../../content/docs/images/', import.meta.url));
mkdirSync(out, { recursive: true });

/** Fails when the page is wider than its window (horizontal overflow: a broken layout). */
async function assertNoOverflow(page: Page, name: string) {
  const { wide, window } = await page.evaluate(() => ({
    wide: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  if (wide > window)
    throw new Error(`${name}: the page is ${wide} px wide in a ${window} px window (overflow)`);
}

/** Makes a PNG small: pngquant when installed, else ffmpeg's 128-colour palette (kept only when
 * smaller). */
function shrink(file: string) {
  try {
    execFileSync('pngquant', [
      '--force',
      '--skip-if-larger',
      '--quality',
      '70-95',
      '--output',
      file,
      file,
    ]);
    return;
  } catch (error) {
    // Not installed (ENOENT), or the result would not be smaller (98) or good enough (99).
    const { code, status } = error as NodeJS.ErrnoException & { status?: number };
    if (code !== 'ENOENT' && status !== 98 && status !== 99) throw error;
    if (code !== 'ENOENT') return;
  }
  const smaller = `${file}.palette.png`;
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none',
    smaller,
  ]);
  if (statSync(smaller).size < statSync(file).size) renameSync(smaller, file);
  else rmSync(smaller);
}

async function shoot(page: Page, name: string, part?: Locator) {
  // Two statistics messages (one a second): every chip has settled.
  await page.waitForTimeout(2200);
  await assertNoOverflow(page, name);
  const file = `${out}${name}.png`;
  await (part ?? page).screenshot({ path: file });
  shrink(file);
  console.log(
    `wrote content/docs/images/${name}.png (${Math.round(statSync(file).size / 1024)} KB)`,
  );
}

/** A chord (A minor over two octaves) with a little noise, for the visualizer's picture. */
async function sendChord(port: number, from: string): Promise<() => void> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, from, () => resolve()));
  const notes = [110, 220, 261.6, 329.6, 440, 659.3, 880, 1760, 3520];
  let frame = 0;
  const timer = setInterval(() => {
    const packet = Buffer.alloc(1157);
    packet.set([0x01, 16, 2, 0x03, 0x00]);
    for (let i = 0; i < 288; i++, frame++) {
      const t = frame / 48000;
      let v = notes.reduce((sum, f, k) => sum + Math.sin(2 * Math.PI * f * t) / (k + 2), 0);
      v = v * 0.18 + (Math.random() - 0.5) * 0.01;
      const sample = Math.round(Math.max(-1, Math.min(1, v)) * 32767);
      packet.writeInt16LE(sample, 5 + i * 4);
      packet.writeInt16LE(sample, 7 + i * 4);
    }
    socket.send(packet, port, '127.0.0.1');
  }, 6);
  return () => {
    clearInterval(timer);
    socket.close();
  };
}

const DESKTOP = { width: 1440, height: 900 };
const run = await start();
let house: RealisticHouse | undefined;
let stop = () => {};
try {
  const first = await run.open('/', DESKTOP);
  await first.page.getByText('No sources yet.').waitFor();
  await shoot(first.page, 'dashboard-first-run');
  await first.context.close();

  house = await realisticHouse(run);
  for (const theme of ['light', 'dark'] as const) {
    const { page, context } = await run.open('/', { ...DESKTOP, theme });
    await ready(page);
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.chip')).some((c) =>
        c.textContent?.startsWith('playing'),
      ),
    );
    await page.mouse.move(0, 0);
    await shoot(page, `dashboard-desktop-${theme}`);
    await context.close();
  }
  const phone = await run.open('/', { width: 390, height: 844 });
  await ready(phone.page);
  await shoot(phone.page, 'dashboard-phone');
  await phone.context.close();

  // The visualizer: the Desk PC playing a chord on the Office sink, as a spectrum.
  house.stopTone();
  stop = await sendChord(house.screamPort, realisticSourceIp('Desk PC'));
  for (const [style, presses] of [
    ['spectrum', 1],
    ['waveform', 0],
  ] as const) {
    const viz = await run.open('/', DESKTOP);
    await ready(viz.page);
    await viz.page.getByRole('button', { name: 'Desk PC', exact: true }).click();
    await viz.page.mouse.move(0, 0);
    for (let i = 0; i < presses; i++) await viz.page.keyboard.press('h');
    const section = viz.page.locator('section.visualizer');
    await section.scrollIntoViewIfNeeded();
    await viz.page.getByText(/Office: -\d+\.\d dB/).waitFor();
    await shoot(viz.page, `dashboard-visualizer-${style}`, section);
    await viz.context.close();
  }

  // The equalizer of a route into a group, one of whose sinks has its own: two paths.
  const kitchen = [1.3, 1.2, 1.1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.15, 1.2, 1.2];
  await run.api(
    'POST',
    '/sinks/Kitchen/equalizer',
    Object.fromEntries(kitchen.map((gain, i) => [`b${i + 1}`, gain])),
  );
  await run.api('POST', '/routes/TV%20to%20Downstairs/equalizer', {
    b1: 1.6,
    b2: 1.5,
    b3: 1.35,
    b4: 1.2,
    b5: 1.1,
    b6: 1,
    b7: 0.9,
    b8: 0.85,
    b9: 0.9,
    b10: 1,
    b11: 1,
    b12: 1.05,
    b13: 1.1,
    b14: 1.2,
    b15: 1.3,
    b16: 1.35,
    b17: 1.4,
    b18: 1.4,
  });
  const eq = await run.open('/', DESKTOP);
  await ready(eq.page);
  await eq.page.getByRole('button', { name: 'Actions for TV to Downstairs' }).click();
  await eq.page.getByRole('menuitem', { name: 'Equalizer' }).click();
  await eq.page.getByRole('dialog').getByRole('slider').first().waitFor();
  await eq.page.getByTestId('eq-curve').waitFor();
  await shoot(eq.page, 'dashboard-equalizer');
  await eq.context.close();
} finally {
  stop();
  house?.stop();
  await run.close();
}
