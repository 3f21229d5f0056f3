// Groups, the equalizer (bands, presets, the effective chain of a route), delay steps and search,
// through the dashboard against a real daemon.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { curvePath, describeCurve } from '../src/lib/response-curve';
import { config, eventually, openDetails, type Running, ready, start } from './harness/dashboard';

let run: Running;
let page: Page;
before(async () => {
  run = await start();
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 });
  await run.api('POST', '/sinks', { name: 'Hall', ip: '127.0.0.1', port: 4991 });
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1', equalizer: { b1: 1.5 } });
  await run.api('POST', '/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' });
  ({ page } = await run.open('/', { width: 1400, height: 900 }));
  await ready(page);
});
after(() => run?.close());

const sink = async (name: string) => (await config(run)).sinks.find((s) => s.name === name);

describe('groups', () => {
  test('Create Group makes a sink group of the ticked sinks', async () => {
    await page
      .getByRole('region', { name: /^Sinks/ })
      .getByRole('button', { name: 'Create Group' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create Sink Group' });
    await dialog.getByLabel('Name').fill('Downstairs');
    await dialog.getByRole('checkbox', { name: 'Kitchen' }).check();
    await dialog.getByRole('checkbox', { name: 'Hall' }).check();
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await dialog.waitFor({ state: 'detached' });
    const group = await sink('Downstairs');
    assert.equal(group?.is_group, true);
    assert.deepEqual(group?.group_members, ['Kitchen', 'Hall']);
    await openDetails(page, 'Downstairs');
    await page
      .getByRole('article', { name: 'Downstairs' })
      .getByRole('list', { name: 'Members' })
      .waitFor();
  });

  test('a group made to contain itself gets the rule next to its members', async () => {
    await run.api('POST', '/sinks', {
      name: 'Everywhere',
      is_group: true,
      group_members: ['Downstairs'],
    });
    await page.getByRole('button', { name: 'Actions for Downstairs' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit sink group Downstairs' });
    await dialog.getByRole('checkbox', { name: 'Everywhere (group)' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Next to the members (the fieldset describes itself with it), and in the message above.
    const rule = 'must not contain itself (Downstairs -> Everywhere -> Downstairs)';
    await dialog.getByText(rule, { exact: true }).waitFor();
    assert.equal(
      await dialog.getByRole('group', { name: 'Members' }).getAttribute('aria-describedby'),
      'members-error',
    );
    await dialog.getByRole('alert').getByText(`group_members ${rule}`).waitFor();
    assert.deepEqual((await sink('Downstairs'))?.group_members, ['Kitchen', 'Hall']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('equalizer', () => {
  test('bands are heard as they move; the route shows its effective equalizer', async () => {
    await page.getByRole('button', { name: 'Actions for PC to Kitchen' }).click();
    await page.getByRole('menuitem', { name: 'Equalizer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Equalizer of PC to Kitchen' });
    const bands = dialog.getByRole('slider');
    await bands.first().waitFor();
    assert.equal(await bands.count(), 18);
    assert.equal(await bands.first().getAttribute('aria-label'), '65 Hz band');
    assert.equal(await bands.last().getAttribute('aria-label'), '20 kHz band');
    await bands.first().focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
    const route = async () => (await config(run)).routes[0]!.equalizer;
    await eventually(async () => (await route()).b1, 1.3);
    // source b1 1.5 x route b1 1.3 x sink b1 1.0
    const effective = dialog.getByRole('region', { name: 'Effective equalizer by path' });
    await effective.getByRole('cell', { name: '1.95' }).waitFor();
    assert.match(
      (await effective.getByRole('rowheader').textContent()) ?? '',
      /PC → PC to Kitchen → Kitchen/,
    );

    await dialog.getByLabel('Preset').selectOption('Bass Boost');
    await dialog.getByRole('button', { name: 'Apply preset' }).click();
    const preset = (await config(run)).equalizers.find((p) => p.name === 'Bass Boost')!;
    await eventually(async () => (await route()).b2, preset.b2);
    assert.equal((await route()).b18, preset.b18);

    await dialog.getByLabel('Save current bands as').fill('Mine');
    await dialog.getByRole('button', { name: 'Save preset' }).click();
    await eventually(
      async () => (await config(run)).equalizers.some((p) => p.name === 'Mine'),
      true,
    );
    await dialog.getByLabel('Preset').selectOption('Mine');
    await dialog.getByRole('button', { name: 'Delete preset' }).click();
    await dialog.getByRole('button', { name: 'Confirm: delete Mine' }).click();
    await eventually(
      async () => (await config(run)).equalizers.some((p) => p.name === 'Mine'),
      false,
    );

    await dialog.getByRole('button', { name: 'Reset to flat' }).click();
    await eventually(async () => Object.values(await route()).every((g) => g === 1), true);
    await dialog.getByRole('button', { name: 'Done' }).click();
  });
});

describe('equalizer response curve', () => {
  test("the curve is the engine's design of the bands shown, redrawn as a band moves", async () => {
    await page.getByRole('button', { name: 'Actions for Hall' }).click();
    await page.getByRole('menuitem', { name: 'Equalizer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Equalizer of Hall' });
    const curve = dialog.getByRole('img', { name: /^Response curve at 48000 Hz/ });
    await dialog.getByRole('img', { name: /Flat: 0 dB at every frequency/ }).waitFor();
    const band = dialog.getByRole('slider').nth(8);
    assert.equal(await band.getAttribute('aria-label'), '1.0 kHz band');
    await band.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageUp');
    await eventually(async () => (await sink('Hall'))?.equalizer.b9, 1.5);
    const bands = (await sink('Hall'))!.equalizer;
    const answer = await run.api('POST', '/api/equalizer/response', { bands, sample_rate: 48000 });
    const expected = answer.body as { frequencies: number[]; db: number[] };
    const path = dialog.getByTestId('eq-curve');
    await eventually(
      async () => path.getAttribute('d'),
      curvePath(expected.frequencies, expected.db, 600, 140),
    );
    const summary = describeCurve(expected.frequencies, expected.db);
    assert.match(summary, /^Highest \+3\.\d dB at 1\.\d kHz/);
    assert.equal(await curve.getAttribute('aria-label'), `Response curve at 48000 Hz. ${summary}`);
    await dialog.getByRole('button', { name: 'Reset to flat' }).click();
    await dialog.getByRole('img', { name: /Flat: 0 dB at every frequency/ }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
  });
});

describe('delay and search', () => {
  test('delay moves in 10 ms steps; a typed value out of range gets the rule', async () => {
    await page.getByRole('button', { name: 'Actions for Hall' }).click();
    await page.getByRole('menuitem', { name: 'Delay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delay of Hall' });
    await dialog.getByRole('button', { name: '+10 ms' }).click();
    await eventually(async () => (await sink('Hall'))?.delay, 10);
    await dialog.getByRole('button', { name: '+10 ms' }).click();
    await eventually(async () => (await sink('Hall'))?.delay, 20);
    await dialog.getByRole('button', { name: '−10 ms' }).click();
    await eventually(async () => (await sink('Hall'))?.delay, 10);
    await dialog.getByLabel('Delay (ms)').fill('6000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('must be <= 5000 (got 6000)').waitFor();
    assert.equal((await sink('Hall'))?.delay, 10);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
  });

  test('search filters every panel', async () => {
    const sinks = page.getByRole('region', { name: /^Sinks/ });
    const box = (name: string) =>
      sinks.getByRole('article', { name, exact: true }).evaluate((card) => {
        const r = card.getBoundingClientRect();
        return { left: r.left, top: r.top };
      });
    const secondSlot = await box('Hall');
    const lines = () =>
      page.locator('canvas.route-lines').evaluate((c) => c.getAttribute('data-lines'));
    await eventually(lines, '1');
    await page.getByRole('searchbox').fill('kitch');
    // Hidden, not unmounted (Column.tsx): it comes back at once.
    await sinks.getByRole('article', { name: 'Hall' }).waitFor({ state: 'hidden' });
    await sinks.getByRole('article', { name: 'Kitchen', exact: true }).waitFor();
    await page.getByRole('article', { name: 'PC to Kitchen' }).waitFor();
    assert.equal(
      await page
        .getByRole('region', { name: /^Sources/ })
        .getByRole('article')
        .count(),
      0,
    );
    // A hidden card leaves no gap (Downstairs moves up into Hall's place), takes no focus, and
    // its line goes (PC's card is hidden).
    assert.deepEqual(await box('Downstairs'), secondSlot);
    const hiddenButton = sinks.getByRole('button', {
      name: 'Actions for Hall',
      includeHidden: true,
    });
    await hiddenButton.evaluate((b: HTMLElement) => b.focus());
    assert.equal(await hiddenButton.evaluate((b) => b === document.activeElement), false);
    await eventually(lines, '0');
    await page.getByRole('searchbox').fill('');
    await page.getByRole('article', { name: 'PC', exact: true }).waitFor();
    await eventually(lines, '1');
  });
});
