// Numbers that are not finite (issue 10): "Infinity", "1e309" and "-1e309" in a setter's path
// used to pass validation (ajv coerces after its finiteness check and then skips the range
// checks), were saved as `.inf`, and the daemon could neither answer GET /sinks nor start
// again. Every entry point refuses them with a 400 naming the value, and the store refuses
// anything the file schema would not load.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigStore } from '../../src/config/store.js';
import { build } from '../helpers.js';

const kinds = [
  { path: '/sinks', body: { name: 'A' } },
  { path: '/sources', body: { name: 'A' } },
] as const;

describe('non-finite numbers', () => {
  test('setters refuse Infinity, 1e309, -1e309, hex and blanks for volume and delay', async (t) => {
    const app = await build(t);
    for (const { path, body } of kinds) {
      assert.equal(
        (await app.inject({ method: 'POST', url: path, payload: body })).statusCode,
        201,
      );
    }
    const route = { name: 'A', source: 'A', sink: 'A' };
    assert.equal(
      (await app.inject({ method: 'POST', url: '/routes', payload: route })).statusCode,
      201,
    );
    const before = readFileSync(join(app.dir, 'config.yaml'), 'utf8');
    for (const collection of ['/sinks', '/sources', '/routes']) {
      for (const field of ['volume', 'delay']) {
        for (const value of [
          'Infinity',
          '-Infinity',
          '1e309',
          '-1e309',
          'NaN',
          '0x1',
          '%20',
          '1e',
          '',
        ]) {
          const url = `${collection}/A/${field}/${value}`;
          const res = await app.inject({ method: 'GET', url });
          if (value === '') {
            assert.equal(res.statusCode, 404, url); // no value: no such route
            continue;
          }
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
          const error = res.json();
          assert.equal(error.code, 'TRIBUTARY_INVALID_REQUEST');
          assert.equal(error.details[0].path, field);
          assert.equal(error.details[0].rule, 'must be a finite decimal number');
          const given = decodeURIComponent(value);
          assert.equal(error.details[0].value, given, url);
          assert.match(error.message, new RegExp(`${field} must be a finite decimal number`));
        }
      }
    }
    // Nothing was saved, and everything still answers.
    assert.equal(readFileSync(join(app.dir, 'config.yaml'), 'utf8'), before);
    for (const url of ['/sinks', '/sources', '/routes', '/api/config']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 200, url);
    }
    // Ordinary decimals still work, exponents included.
    const ok = await app.inject({ method: 'GET', url: '/sinks/A/volume/2.5e-1' });
    assert.equal(ok.statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/sinks/A' })).json().volume, 0.25);
  });

  test('JSON bodies with 1e309 are refused naming the field and the value', async (t) => {
    const app = await build(t);
    await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'A' } });
    for (const [method, url, text] of [
      ['PUT', '/sinks/A', '{"volume": 1e309}'],
      ['POST', '/sinks', '{"name": "B", "delay": -1e309}'],
      ['PUT', '/sinks/A', '{"equalizer": {"b3": 1e400}}'],
    ] as const) {
      const res = await app.inject({
        method,
        url,
        payload: text,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 400, `${method} ${url} ${text}: ${res.body}`);
      const problem = res.json().details[0];
      assert.equal(problem.rule, 'must be a finite number');
      assert.match(problem.value, /^-?Infinity$/);
      assert.match(problem.message, /\(got -?Infinity\)/);
    }
  });

  test('the store refuses a change the file schema would not load, writing nothing', async (t) => {
    const app = await build(t);
    await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'A' } });
    const file = join(app.dir, 'config.yaml');
    const before = readFileSync(file, 'utf8');
    const store = app.configStore;
    for (const mutate of [
      (c: { sinks: { volume: number; delay: number; port: number | null }[] }) => {
        c.sinks[0]!.volume = Number.POSITIVE_INFINITY;
      },
      (c: { sinks: { volume: number; delay: number; port: number | null }[] }) => {
        c.sinks[0]!.delay = Number.NaN;
      },
      (c: { sinks: { volume: number; delay: number; port: number | null }[] }) => {
        c.sinks[0]!.port = 70_000;
      },
    ]) {
      await assert.rejects(
        store.change((draft) => mutate(draft as never)),
        (err: { code?: string; statusCode?: number }) =>
          err.code === 'TRIBUTARY_INVALID_CONFIG' && err.statusCode === 400,
      );
    }
    assert.equal(readFileSync(file, 'utf8'), before);
    // And the files still load.
    const reopened = await ConfigStore.open({
      configPath: file,
      equalizerPath: join(app.dir, 'equalizers.yaml'),
      watch: false,
    });
    assert.equal(reopened.config.sinks[0]!.volume, 1);
    await reopened.close();
  });

  test('a file with .inf names the value instead of "must be number (got null)"', async (t) => {
    const { parseConfigText, ConfigFileError } = await import('../../src/config/documents.js');
    assert.throws(
      () => parseConfigText('sinks:\n  - name: A\n    volume: .inf\n', 'config.yaml'),
      (err: InstanceType<typeof ConfigFileError>) =>
        /sinks\[0\]\.volume must be a finite number \(got Infinity\)/.test(err.message),
    );
    t.diagnostic('checked');
  });
});
