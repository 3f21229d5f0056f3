import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run as serve } from '../src/commands/serve.js';
import { readSettings } from '../src/settings/index.js';
import { runCommand } from './helpers.js';

test('defaults: every interface, automatic ports, config in ~/.config/tributary, reload after 3 s', () => {
  const s = readSettings({});
  assert.equal(s.host, '0.0.0.0');
  assert.equal(s.apiPort, 'auto');
  assert.equal(s.httpPort, 'auto');
  assert.equal(s.configPath, join(homedir(), '.config', 'tributary', 'config.yaml'));
  assert.equal(s.equalizerPath, join(homedir(), '.config', 'tributary', 'equalizers.yaml'));
  assert.equal(s.reloadTimeoutMs, 3000);
  assert.equal(s.certificatePath, null);
  assert.equal(s.apiToken, undefined);
  assert.equal(s.logFormat, 'auto');
  assert.equal(readSettings({ LOG_FORMAT: 'json' }).logFormat, 'json');
  assert.equal(readSettings({ XDG_CONFIG_HOME: '/x' }).configPath, '/x/tributary/config.yaml');
});

test('the audio engine is on by default, with its settings read and checked with the others', () => {
  assert.deepEqual(readSettings({}).engine, {
    bind: '0.0.0.0',
    screamPorts: [4010, 16401],
    taggedPort: 16402,
    rtpPorts: [40000],
    multicastGroups: [],
    jitterAdaptive: true,
    jitterMinMs: 20,
    jitterMaxMs: 200,
    webrtcAddresses: [],
    webrtcPort: 0,
  });
  assert.equal(readSettings({ ENGINE: 'off' }).engine, null);
  const e = readSettings({
    ENGINE_BIND: '127.0.0.1',
    SCREAM_PORTS: '0',
    SCREAM_TAGGED_PORT: 'off',
    RTP_PORTS: '5004,5006',
    MULTICAST_GROUPS: '239.255.77.77',
    JITTER_BUFFER: 'fixed',
    JITTER_MIN_MS: '50',
  }).engine;
  assert.deepEqual(
    [e?.bind, e?.screamPorts, e?.taggedPort, e?.rtpPorts, e?.multicastGroups, e?.jitterAdaptive],
    ['127.0.0.1', [0], null, [5004, 5006], ['239.255.77.77'], false],
  );
  assert.equal(e?.jitterMinMs, 50);
  assert.deepEqual(e?.webrtcAddresses, ['127.0.0.1']);
  const w = readSettings({ WEBRTC_ADDRESSES: '10.0.0.2, ::1', WEBRTC_PORT: '50000' }).engine;
  assert.deepEqual([w?.webrtcAddresses, w?.webrtcPort], [['10.0.0.2', '::1'], 50000]);
  assert.throws(() => readSettings({ WEBRTC_ADDRESSES: 'eth0' }), /WEBRTC_ADDRESSES/);
  assert.throws(() => readSettings({ WEBRTC_PORT: '1,2' }), /WEBRTC_PORT/);
});

test('explicit values', () => {
  const s = readSettings({
    API_HOST: '127.0.0.1',
    API_PORT: '9443',
    HTTP_PORT: 'off',
    CONFIG_PATH: '/etc/tributary/config.yaml',
    CONFIGURATION_RELOAD_TIMEOUT: '0.5',
    CERTIFICATE: '/c.pem',
    CERTIFICATE_KEY: '/k.pem',
    API_TOKEN: 't',
  });
  assert.deepEqual(
    [
      s.host,
      s.apiPort,
      s.httpPort,
      s.equalizerPath,
      s.reloadTimeoutMs,
      s.certificatePath,
      s.apiToken,
    ],
    ['127.0.0.1', 9443, null, '/etc/tributary/equalizers.yaml', 500, '/c.pem', 't'],
  );
});

test('bad values are refused naming the variable', () => {
  const refused: [Record<string, string>, RegExp][] = [
    [{ API_PORT: '65536' }, /API_PORT must be an integer 0-65535, got '65536'/],
    [{ HTTP_PORT: 'eighty' }, /HTTP_PORT must be an integer 0-65535 or 'off'/],
    [
      { CONFIGURATION_RELOAD_TIMEOUT: 'soon' },
      /CONFIGURATION_RELOAD_TIMEOUT must be a number of seconds/,
    ],
    [{ CONFIGURATION_RELOAD_TIMEOUT: '0' }, /CONFIGURATION_RELOAD_TIMEOUT/],
    [{ CERTIFICATE: '/c.pem' }, /CERTIFICATE and CERTIFICATE_KEY must be set together/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT must be auto, json or pretty, got 'xml'/],
    [{ ENGINE: 'yes' }, /ENGINE must be 'on' or 'off', got 'yes'/],
    [{ ENGINE_BIND: 'localhost' }, /ENGINE_BIND must be an IP address .*got 'localhost'/],
    [{ SCREAM_PORTS: '4010,x' }, /SCREAM_PORTS must be comma-separated ports/],
    [{ RTP_PORTS: '70000' }, /RTP_PORTS must be comma-separated ports/],
    [{ JITTER_MAX_MS: '500' }, /JITTER_MAX_MS must be a number of milliseconds from 20 to 200/],
  ];
  for (const [env, message] of refused)
    assert.throws(() => readSettings(env), message, JSON.stringify(env));
});

test('every variable the daemon reads is in serve --help, daemon/README.md and the configuration docs', async () => {
  // Whatever readSettings() looks up (the engine's variables included), recorded as it reads.
  const read = new Set<string>();
  readSettings(
    new Proxy({} as Record<string, string | undefined>, {
      get: (_, name) => {
        read.add(String(name));
        return undefined;
      },
    }),
  );
  for (const name of ['API_PORT', 'CONFIG_PATH', 'ENGINE', 'SCREAM_TAGGED_PORT', 'JITTER_MAX_MS'])
    assert.ok(read.has(name), `${name} is read`);

  const { status, stdout: help } = await runCommand(serve, ['--help']);
  assert.equal(status, 0);
  const file = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  const places = {
    'tributary serve --help': help,
    'daemon/README.md': file('../README.md'),
    'content/docs/configuration.mdx': file('../../content/docs/configuration.mdx'),
  };
  for (const [place, text] of Object.entries(places)) {
    const missing = [...read].filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    assert.deepEqual(missing, [], `${place} does not mention ${missing.join(', ')}`);
  }
});
