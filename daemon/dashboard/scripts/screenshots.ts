// `npm run screenshots -w daemon/dashboard`: the UI guide's screenshots, taken from the real app
// on a real daemon (engine on, loopback only) with a small demo house, written as PNG to
// content/docs/images/, made small with pngquant when it is installed (Debian: pngquant). Re-run
// after a visible change to the dashboard and commit the images.
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { receivers, sendScream } from '../e2e/harness/audio';
import { type Running, ready, start } from '../e2e/harness/dashboard';

const out = fileURLToPath(new URL('../../../content/docs/images/', import.meta.url));
mkdirSync(out, { recursive: true });

async function shoot(page: Page, name: string, part?: Locator) {
  // Two statistics messages (one a second): every chip has settled.
  await page.waitForTimeout(2200);
  const file = `${out}${name}.png`;
  await (part ?? page).screenshot({ path: file });
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
  } catch (error) {
    // Not installed (ENOENT), or the result would not be smaller (98) or good enough (99).
    const { code, status } = error as NodeJS.ErrnoException & { status?: number };
    if (code !== 'ENOENT' && status !== 98 && status !== 99) throw error;
  }
  console.log(`wrote content/docs/images/${name}.png`);
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

async function demo(run: Running, receivers: Socket[]) {
  const sinks = [
    { name: 'Living Room', channel_layout: 'stereo' },
    { name: 'Kitchen', volume: 0.5 },
    { name: 'Office', protocol: 'rtp', bit_depth: 24 },
    { name: 'Patio', enabled: false },
  ];
  for (const [i, sink] of sinks.entries()) {
    await run.api('POST', '/sinks', {
      ip: '127.0.0.1',
      port: receivers[i]!.address().port,
      ...sink,
    });
  }
  await run.api('POST', '/sinks', {
    name: 'Downstairs',
    is_group: true,
    group_members: ['Living Room', 'Kitchen'],
  });
  await run.api('POST', '/sources', { name: 'Desktop PC', ip: '127.0.2.1', vnc_ip: '127.0.2.1' });
  await run.api('POST', '/sources', {
    name: 'Turntable',
    ip: '127.0.2.2',
    rtp: { port: 40002, format: 'L24', sample_rate: 96000 },
  });
  await run.api('POST', '/sources', { name: 'TV', ip: '127.0.2.3', volume: 0.7 });
  await run.api('POST', '/routes', {
    name: 'Desktop PC to Downstairs',
    source: 'Desktop PC',
    sink: 'Downstairs',
  });
  await run.api('POST', '/routes', {
    name: 'Turntable to Office',
    source: 'Turntable',
    sink: 'Office',
    volume: 0.8,
  });
  await run.api('POST', '/routes', {
    name: 'TV to Living Room',
    source: 'TV',
    sink: 'Living Room',
    enabled: false,
  });
  await run.api('POST', '/routes', { name: 'TV to Patio', source: 'TV', sink: 'Patio' });
  await run.api('POST', '/sinks/Kitchen/equalizer', {
    b1: 1.3,
    b2: 1.2,
    b3: 1.1,
    b4: 1,
    b5: 1,
    b6: 1,
    b7: 1,
    b8: 1,
    b9: 1,
    b10: 1,
    b11: 1,
    b12: 1,
    b13: 1,
    b14: 1.05,
    b15: 1.1,
    b16: 1.15,
    b17: 1.2,
    b18: 1.2,
  });
  const ids = (
    (await run.api('GET', '/api/config')).body as {
      config: {
        sinks: { name: string; config_id: string }[];
        sources: { name: string; config_id: string }[];
      };
    }
  ).config;
  const id = (list: { name: string; config_id: string }[], name: string) =>
    list.find((e) => e.name === name)!.config_id;
  await run.api('PUT', '/api/favorites', {
    favorites: [id(ids.sources, 'Desktop PC'), id(ids.sinks, 'Kitchen')],
  });
}

const sinks = await receivers(4);
const run = await start();
let stop = () => {};
try {
  const first = await run.open('/', { width: 1280, height: 720 });
  await first.page.getByText('No sources yet.').waitFor();
  await shoot(first.page, 'dashboard-first-run');
  await first.context.close();

  await demo(run, sinks);
  const stats = (await run.api('GET', '/api/stats')).body as {
    engine: { ports: { scream: number[] } };
  };
  // The Desktop PC's address, and a sender nobody added (the banner).
  stop = await sendScream(stats.engine.ports.scream[0]!, ['127.0.2.1', '127.0.2.9']);
  for (const theme of ['light', 'dark'] as const) {
    const { page, context } = await run.open('/', { width: 1280, height: 800, theme });
    await ready(page);
    await page.getByRole('button', { name: 'Desktop PC', exact: true }).click();
    await page.getByText('Audio arriving from 127.0.2.9').waitFor();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.chip')).some((c) =>
        c.textContent?.startsWith('playing'),
      ),
    );
    await page.mouse.move(0, 0);
    await shoot(page, `dashboard-desktop-${theme}`);
    await context.close();
  }
  const phone = await run.open('/', { width: 375, height: 812 });
  await ready(phone.page);
  await shoot(phone.page, 'dashboard-phone');
  await phone.context.close();

  // The visualizer: the Desktop PC playing a chord on the Downstairs sinks, as a spectrum.
  stop();
  const stopChord = await sendChord(stats.engine.ports.scream[0]!, '127.0.2.1');
  stop = stopChord;
  for (const [style, presses] of [
    ['spectrum', 1],
    ['waveform', 0],
  ] as const) {
    const viz = await run.open('/', { width: 1280, height: 800 });
    await ready(viz.page);
    await viz.page.getByRole('button', { name: 'Desktop PC', exact: true }).click();
    await viz.page.mouse.move(0, 0);
    for (let i = 0; i < presses; i++) await viz.page.keyboard.press('h');
    const section = viz.page.locator('section.visualizer');
    await section.scrollIntoViewIfNeeded();
    await viz.page.getByText(/Living Room: -\d+\.\d dB/).waitFor();
    await shoot(viz.page, `dashboard-visualizer-${style}`, section);
    await viz.context.close();
  }

  await run.api('POST', '/routes/Desktop%20PC%20to%20Downstairs/equalizer', {
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
  const eq = await run.open('/', { width: 1280, height: 800 });
  await ready(eq.page);
  await eq.page.getByRole('button', { name: 'Actions for Desktop PC to Downstairs' }).click();
  await eq.page.getByRole('menuitem', { name: 'Equalizer' }).click();
  await eq.page.getByRole('dialog').getByRole('slider').first().waitFor();
  await eq.page.getByTestId('eq-curve').waitFor();
  await shoot(eq.page, 'dashboard-equalizer');
  await eq.context.close();
} finally {
  stop();
  for (const r of sinks) r.close();
  await run.close();
}
