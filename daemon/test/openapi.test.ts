import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openapiText } from '../src/openapi-document.js';
import { build } from './helpers.js';

const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');

test('daemon/openapi.json is up to date (run `npm run openapi -w @tributary/daemon` after changing a schema)', async () => {
  assert.equal(await openapiText(), committed);
});

test('GET /api/openapi.json serves the same document', async (t) => {
  const app = await build(t);
  const res = await app.inject('/api/openapi.json');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), JSON.parse(committed));
});

test('the document covers every route with tags, request schemas and error responses', () => {
  const doc = JSON.parse(committed);
  assert.equal(doc.openapi, '3.1.0');
  const tags = doc.tags.map((t: { name: string }) => t.name);
  assert.deepEqual(tags, [
    'Sinks',
    'Sources',
    'Routes',
    'Equalizers',
    'Streaming',
    'Discovery',
    'Plugins',
    'System',
  ]);
  const expected = [
    'get /sinks',
    'post /sinks',
    'get /sinks/{name}',
    'put /sinks/{name}',
    'delete /sinks/{name}',
    'get /sinks/{name}/enable',
    'get /sinks/{name}/disable',
    'get /sinks/{name}/volume/{volume}',
    'get /sinks/{name}/delay/{delay}',
    'get /sinks/{name}/equalizer',
    'post /sinks/{name}/equalizer',
    'put /sources/{name}',
    'get /sources/{name}/play',
    'get /sources/{name}/nexttrack',
    'get /sources/{name}/prevtrack',
    'post /routes',
    'get /routes/{name}/enable',
    'post /routes/{name}/equalizer',
    'get /equalizers',
    'post /equalizers',
    'delete /equalizers/{name}',
    'get /api/health',
    'get /api/config',
    'get /ws/config',
    // The setters and media commands again, safe from cross-site requests.
    'put /sinks/{name}/enable',
    'put /sinks/{name}/volume/{volume}',
    'put /sources/{name}/delay/{delay}',
    'put /routes/{name}/disable',
    'post /sources/{name}/play',
    'get /api/discovery',
    'get /api/discovery/settings',
    'put /api/discovery/settings',
    'post /api/discovery/streams/{id}/add',
    'post /api/discovery/devices/{id}/add',
    // The specification's plugin endpoints.
    'get /plugins/playurl/play',
    'post /plugins/playurlmultiple/play',
  ];
  for (const op of expected) {
    const [method, path] = op.split(' ') as [string, string];
    assert.ok(doc.paths[path]?.[method], `${op} is missing`);
  }
  const ids = new Set<string>();
  for (const [path, methods] of Object.entries<Record<string, Record<string, unknown>>>(
    doc.paths,
  )) {
    for (const [method, op] of Object.entries(methods)) {
      const where = `${method} ${path}`;
      assert.ok(Array.isArray(op.tags) && op.tags.length === 1, `${where} has one tag`);
      // An undeclared tag makes a group of its own in the API reference, without a description.
      assert.ok(tags.includes(op.tags[0]), `${where}: tag ${op.tags[0]} is one of ${tags}`);
      assert.ok(typeof op.summary === 'string', `${where} has a summary`);
      assert.ok(
        typeof op.operationId === 'string' && !ids.has(op.operationId),
        `${where} operationId`,
      );
      ids.add(op.operationId as string);
      const responses = op.responses as Record<
        string,
        { content?: Record<string, { schema: unknown }> }
      >;
      assert.ok(responses['401'] && responses['500'], `${where} documents 401 and 500`);
      const errorRef = responses['401']!.content!['application/json']!.schema;
      assert.deepEqual(errorRef, { $ref: '#/components/schemas/Error' });
      // Setters and media commands carry everything in the URL; through GET they are refused
      // from another site (403).
      const bodiless =
        /\/(enable|disable|volume\/\{volume\}|delay\/\{delay\}|play|nexttrack|prevtrack)$/.test(
          path,
        );
      if (bodiless && method === 'get') assert.ok(responses['403'], `${where} documents 403`);
      if (['post', 'put'].includes(method) && !bodiless) {
        assert.ok(op.requestBody, `${where} documents its body`);
        assert.ok(responses['400'], `${where} documents 400`);
      }
      if (path.includes('{name}')) assert.ok(responses['404'], `${where} documents 404`);
    }
  }
  const sink = doc.components.schemas.Sink;
  assert.equal(sink.properties.volume.maximum, 1);
  assert.equal(sink.properties.port.default, 4010);
  assert.ok(sink.properties.volume.description.length > 20);
  assert.ok(Array.isArray(sink.examples) && sink.examples.length > 0);
});
