// With API_TOKEN set: the page loads over the daemon's self-signed HTTPS, asks for the token,
// refuses a wrong one, keeps the right one in the tributary_token cookie (which the WebSockets
// carry too), and signs out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Running, ready, start } from './harness/dashboard';

const TOKEN = 'kitchen-radio-42';
let run: Running;
before(async () => {
  run = await start({ API_TOKEN: TOKEN });
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: 4990 });
});
after(() => run?.close());

describe('API_TOKEN', () => {
  test('login: a wrong token is refused, the right one opens the live dashboard and is remembered', async () => {
    const { page, context } = await run.open();
    const field = page.getByLabel('API token');
    await field.waitFor();
    assert.equal((await page.request.get('/api/config')).status(), 401);
    await field.fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This token is not accepted.').waitFor();
    assert.equal(
      (await context.cookies()).some((c) => c.name === 'tributary_token'),
      false,
    );

    await field.fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ready(page);
    await page.getByRole('article', { name: 'Kitchen' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'tributary_token');
    assert.equal(cookie?.value, TOKEN);
    assert.equal(cookie?.secure, true);
    assert.equal(cookie?.sameSite, 'Strict');

    // A change through the dashboard goes through with the cookie; a new tab needs no login.
    await page.getByRole('switch', { name: 'Enable Kitchen' }).click();
    await page.getByRole('switch', { name: 'Enable Kitchen', checked: false }).waitFor();
    const res = await run.api('GET', '/sinks/Kitchen');
    assert.equal((res.body as { enabled: boolean }).enabled, false);
    const second = await run.open('/', { context });
    await ready(second.page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
    assert.equal(
      (await context.cookies()).some((c) => c.name === 'tributary_token'),
      false,
    );
    await context.close();
  });
});
