// Names against the rule of names in the dashboard (issue 26): a config.yaml written before the
// rule (a lone surrogate, "..", ".", a bidirectional control) loads, the dashboard shows every
// entry without an error, and its buttons reach them by config_id: mute, rename, delete.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { config, eventually, type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
});
after(() => run?.close());

const legacy = `sinks:
  - name: "\\udfff"
    config_id: 11111111-1111-4111-8111-111111111111
    ip: 127.0.0.1
  - name: ".."
    config_id: 22222222-2222-4222-8222-222222222222
    ip: 127.0.0.1
sources:
  - name: "PC\\u202e"
    config_id: 33333333-3333-4333-8333-333333333333
    ip: 127.0.0.1
routes:
  - name: "."
    config_id: 44444444-4444-4444-8444-444444444444
    source: "PC\\u202e"
    sink: ".."
`;

test('entries with names against the rule show, and the dashboard changes them by config_id', async () => {
  writeFileSync(join(run.dir, 'config.yaml'), legacy);
  run.daemon.child.kill('SIGHUP');
  await eventually(async () => (await config(run)).sinks.map((s) => s.name), ['\udfff', '..']);
  const { page, errors, context } = await run.open();
  await ready(page);
  const sinks = page.getByRole('region', { name: /^Sinks/ }).getByRole('article');
  await page.getByRole('article', { name: '..', exact: true }).waitFor();
  assert.equal(await sinks.count(), 2);

  // Mute: PUT /sinks/{config_id} (the name ".." would become the URL /sinks/).
  await page.getByRole('button', { name: 'Mute ..', exact: true }).click();
  await eventually(async () => (await config(run)).sinks.map((s) => s.volume), [1, 0]);

  // Rename through the edit dialog: PUT by config_id, the route follows.
  await page.getByRole('button', { name: 'Actions for ..', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit sink ..' });
  await dialog.getByLabel('Name').fill('Hall');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(async () => (await config(run)).routes.map((r) => r.sink), ['Hall']);

  // Delete the route named "." and the sink named with a lone surrogate.
  await page.getByRole('button', { name: 'Actions for .', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await confirm.waitFor({ state: 'detached' });
  await eventually(async () => (await config(run)).routes.length, 0);
  // The sink named with a lone surrogate: the first card of the Sinks panel.
  await sinks
    .first()
    .getByRole('button', { name: /^Actions for / })
    .click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const deleting = page.getByRole('alertdialog');
  await deleting.getByRole('button', { name: 'Delete' }).click();
  await deleting.waitFor({ state: 'detached' });
  await eventually(async () => (await config(run)).sinks.map((s) => s.name), ['Hall']);
  assert.deepEqual(errors, []);
  await context.close();
});
