// The simulated ESP32-S3 for pages under test: flasher/testing/browser-entry.ts bundled for the
// browser with esbuild, injected as an init script so navigator.serial is the simulator before
// any page script runs, plus helpers to look inside the simulated board from the test.

import path from 'node:path';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import type { SimulatorHandle, SimulatorOptions } from '../../flasher/testing/browser-entry';

let bundle: Promise<string> | null = null;

/** The simulator as one browser script defining `TributarySimulator` (built once per run). */
export function simulatorBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [
      path.join(import.meta.dirname, '..', '..', 'flasher', 'testing', 'browser-entry.ts'),
    ],
    bundle: true,
    format: 'iife',
    globalName: 'TributarySimulator',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return bundle;
}

/** Every page of the context gets navigator.serial backed by one simulated board. */
export async function installSimulator(
  context: BrowserContext,
  options: SimulatorOptions = {},
): Promise<void> {
  const script = await simulatorBundle();
  // Init scripts run inside a function: publish the bundle's namespace on the window.
  const install = `globalThis.TributarySimulator = TributarySimulator;
TributarySimulator.install(${JSON.stringify(options)});`;
  await context.addInitScript({ content: `${script}\n${install}` });
}

type Summary = ReturnType<SimulatorHandle['summary']>;

declare const TributarySimulator: { current: SimulatorHandle | null };

export function boardSummary(page: Page): Promise<Summary> {
  return page.evaluate(() => TributarySimulator.current!.summary());
}

export async function readBoardFlash(
  page: Page,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const base64 = await page.evaluate(
    ([o, n]) => TributarySimulator.current!.readFlashBase64(o!, n!),
    [offset, length],
  );
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

/** Pulls the simulated board's USB cable. */
export async function unplugBoard(page: Page): Promise<void> {
  await page.evaluate(() => TributarySimulator.current!.device.unplug());
}
