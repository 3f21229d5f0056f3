// Readable log lines for a terminal (LOG_FORMAT): what pino writes, as a person reads it.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import Fastify from 'fastify';
import { formatLogLine, prettyDestination } from '../src/log-format.js';

const at = Date.UTC(2026, 10, 23, 17, 30, 12, 345);

test('a message: UTC time, level, text, then the other fields as key=value', () => {
  const line = JSON.stringify({
    level: 40,
    time: at,
    pid: 1,
    hostname: 'h',
    msg: 'API_PORT 443 is taken; using 8443',
    component: 'config',
    path: '/etc/my config.yaml',
  });
  assert.equal(
    formatLogLine(line, false),
    '17:30:12.345Z WARN  API_PORT 443 is taken; using 8443 component=config path="/etc/my config.yaml"',
  );
  assert.ok(
    formatLogLine(line, true).startsWith('17:30:12.345Z \u001b[33mWARN \u001b[0m API_PORT'),
    'the level in yellow',
  );
});

test('requests: id, method and URL, then status and time; errors keep their stack', () => {
  const incoming = {
    level: 30,
    time: at,
    reqId: 'req-7',
    req: { method: 'PUT', url: '/sinks/A' },
    msg: 'incoming request',
  };
  assert.equal(
    formatLogLine(JSON.stringify(incoming), false),
    '17:30:12.345Z INFO  [req-7] PUT /sinks/A',
  );
  const done = {
    level: 30,
    time: at,
    reqId: 'req-7',
    res: { statusCode: 409 },
    responseTime: 2.04,
    msg: 'request completed',
  };
  assert.equal(
    formatLogLine(JSON.stringify(done), false),
    '17:30:12.345Z INFO  [req-7] -> 409 in 2.0 ms',
  );
  const failed = {
    level: 50,
    time: at,
    err: {
      type: 'Error',
      message: 'disk full',
      stack: 'Error: disk full\n    at save (store.ts:1:1)',
    },
    msg: 'cannot save config.yaml',
  };
  assert.equal(
    formatLogLine(JSON.stringify(failed), false),
    '17:30:12.345Z ERROR cannot save config.yaml\n    Error: disk full\n        at save (store.ts:1:1)',
  );
});

test('anything that is not a JSON object passes through unchanged', () => {
  for (const line of ['plain text', '[1,2]', '"s"', '{"broken"'])
    assert.equal(formatLogLine(line, false), line);
});

test('a Fastify logger writing to the destination prints readable lines', async () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString();
  });
  const app = Fastify({ logger: { level: 'info', stream: prettyDestination(out) } });
  app.get('/x', async () => 'ok');
  await app.inject('/x');
  app.log.info({ sink: 'Kitchen' }, 'sink added');
  await app.close();
  const lines = text.trimEnd().split('\n');
  assert.match(lines[0]!, /^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}\[req-1\] GET \/x$/);
  assert.match(lines[1]!, /^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}\[req-1\] -> 200 in \d+\.\d ms$/);
  assert.ok(
    lines.some((l) => /INFO {2}sink added sink=Kitchen$/.test(l)),
    text,
  );
  assert.ok(!text.includes('{"level"'), text);
});
