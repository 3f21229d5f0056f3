// Controls that must not be fragile (issue 31, finding 8): the level mute goes back to is kept by
// the daemon, so every browser agrees; every press of a stepping control applies; the Add Sink
// dialog opens on its Name; a source connects to a sink with the keyboard, announced.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stepGain } from '../src/lib/volume';
import { config, eventually, type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 });
  await run.api('POST', '/sinks', { name: 'Hall', ip: '127.0.0.1', port: 4991 });
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
  await run.api('POST', '/sources', { name: 'TV', ip: '127.0.0.2', volume: 0.086 });
});
after(() => run?.close());

const source = async (name: string) => (await config(run)).sources.find((s) => s.name === name)!;

describe('controls', () => {
  test('muted in one browser, unmuted in another: back to the level it had', async () => {
    const first = await run.open();
    await ready(first.page);
    await first.page.getByRole('button', { name: 'Mute TV' }).first().click();
    await eventually(async () => (await source('TV')).volume, 0);
    // Another browser profile (its own storage), as another phone or PC would be.
    const second = await run.open();
    await ready(second.page);
    await second.page.getByRole('button', { name: 'Mute TV', pressed: true }).first().click();
    await eventually(async () => (await source('TV')).volume, 0.086);
    assert.deepEqual([...first.errors, ...second.errors], []);
    await first.context.close();
    await second.context.close();
  });

  test('three quick Down presses on the active source are three steps', async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'PC', exact: true }).click();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    const expected = stepGain(stepGain(stepGain(1, -1), -1), -1);
    await eventually(async () => (await source('PC')).volume, expected);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('two quick "+10 ms" clicks save 20 ms', async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Actions for Kitchen' }).click();
    await page.getByRole('menuitem', { name: 'Delay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delay of Kitchen' });
    const plus = dialog.getByRole('button', { name: '+10 ms' });
    await plus.click();
    await plus.click();
    await eventually(
      async () => (await config(run)).sinks.find((s) => s.name === 'Kitchen')!.delay,
      20,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the Add Sink dialog opens with focus on Name', async () => {
    const { page, context } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Add Sink' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Sink' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
    assert.equal(
      await dialog.getByLabel('Name').evaluate((input) => input === document.activeElement),
      true,
    );
    await context.close();
  });

  test('a source connects to a sink with the keyboard, and the page says so', async () => {
    const { page, context, errors } = await run.open();
    await ready(page);
    await page.getByRole('button', { name: 'Connect PC to a sink' }).focus();
    const said = (text: string) =>
      page.waitForFunction(
        (t) =>
          [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent?.includes(t)),
        text,
      );
    // Picked up, it is over the nearest sink at once; Down goes to the next.
    await page.keyboard.press('Space');
    await said('Over Kitchen');
    await page.keyboard.press('ArrowDown');
    await said('Over Hall');
    await page.keyboard.press('Space');
    await eventually(
      async () => (await config(run)).routes.map((r) => `${r.source} > ${r.sink}`),
      ['PC > Hall'],
    );
    // dnd-kit's live region (role=status) carries what a screen reader hears.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="status"]')].some((e) =>
        e.textContent?.includes('PC now plays on Hall'),
      ),
    );
    assert.deepEqual(errors, []);
    await context.close();
  });
});
