import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSettings } from '../src/settings.js';

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
  assert.equal(readSettings({ XDG_CONFIG_HOME: '/x' }).configPath, '/x/tributary/config.yaml');
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
  ];
  for (const [env, message] of refused)
    assert.throws(() => readSettings(env), message, JSON.stringify(env));
});
