import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropListeningLines, startupSummary } from '../../src/http/startup-summary.js';
import { version } from '../../src/version.js';

const engine = (
  state: 'running' | 'off' | 'failed',
  error: string | null = null,
  simd = { best: 'avx512', used: 'avx512', problem: null },
) =>
  ({ state, error, simd, ports: { scream: [4010, 16401], tagged: 16402, rtp: [40000] } }) as never;

const facts = {
  apiUrl: 'https://127.0.0.1:8443',
  otherUrls: ['https://192.168.1.5:8443'],
  httpUrl: 'http://127.0.0.1:8080',
  engine: engine('running'),
  configPath: '/home/a/.config/tributary/config.yaml',
  equalizerPath: '/home/a/.config/tributary/equalizers.yaml',
  tokenSet: false,
};

test('the startup summary names the URLs, engine ports, files and the token', () => {
  const text = startupSummary(facts);
  assert.equal(
    text,
    [
      `Tributary ${version} is running`,
      '  API:       https://127.0.0.1:8443 (also https://192.168.1.5:8443)',
      '  HTTP:      http://127.0.0.1:8080 redirects to the API (MP3 streams are served there too)',
      '  Engine:    Scream UDP 4010, 16401; per-application Scream UDP 16402; RTP UDP 40000; DSP kernels avx512',
      '  Config:    /home/a/.config/tributary/config.yaml, /home/a/.config/tributary/equalizers.yaml',
      '  API token: not set: anyone who reaches the API can change the configuration (API_TOKEN)',
    ].join('\n'),
  );
});

test('engine off or failed, no HTTP port and a token are said as such', () => {
  const off = startupSummary({ ...facts, engine: engine('off'), httpUrl: null, tokenSet: true });
  assert.match(off, /Engine: +off \(ENGINE=off\)/);
  assert.match(off, /HTTP: +off/);
  assert.match(off, /API token: set: requests need it/);
  const failed = startupSummary({ ...facts, engine: engine('failed', 'port 4010 is taken') });
  assert.match(failed, /Engine: +not running: port 4010 is taken/);
});

test('kernels masked below the CPU’s best say so', () => {
  const masked = engine('running', null, { best: 'avx512', used: 'sse2', problem: null });
  assert.match(
    startupSummary({ ...facts, engine: masked }),
    /RTP UDP 40000; DSP kernels sse2 \(TRIBUTARY_SIMD; this CPU has avx512\)$/m,
  );
});

test("Fastify's own listening lines are dropped, every other line is logged", () => {
  const logged: unknown[][] = [];
  const method = (...args: unknown[]) => {
    logged.push(args);
  };
  dropListeningLines.call(null, ['Server listening at https://127.0.0.1:8443'], method);
  dropListeningLines.call(null, [{ a: 1 }, 'Server listening at http://[::1]:8443'], method);
  dropListeningLines.call(null, ['config reloaded'], method);
  dropListeningLines.call(null, [{ reqId: 1 }, 'request completed'], method);
  assert.deepEqual(logged, [['config reloaded'], [{ reqId: 1 }, 'request completed']]);
});
