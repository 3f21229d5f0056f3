// The names a server answers to (src/http/server-names.ts): Host headers read as a browser
// writes them, interface addresses read again when a name is unknown, and ALLOWED_HOSTS.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hostOf, MACHINE_NAMES_MAX_AGE_MS, ServerNames } from '../../src/http/server-names.js';
import { readSettings, SettingsError } from '../../src/settings/index.js';

describe('server names', () => {
  test('interface addresses are read again when a name is not known (DHCP), before refusing', () => {
    let addresses = ['192.168.1.20'];
    let now = 0;
    let reads = 0;
    const names = new ServerNames({
      machine: () => {
        reads++;
        return { addresses, hostname: 'pi' };
      },
      now: () => now,
    });
    assert.equal(names.accepts('192.168.1.20'), true);
    assert.equal(reads, 1, 'a known name reads nothing');
    assert.equal(names.accepts('10.0.0.5'), false);
    assert.equal(reads, 2, 'an unknown one reads them again before refusing');
    addresses = ['10.0.0.5'];
    assert.equal(names.accepts('10.0.0.5:8443'), true, 'the new lease, without a restart');
    assert.equal(names.accepts('192.168.1.20'), false, 'the old one went with that reading');
    // An address given up while every request names a known one: forgotten once they are old.
    addresses = ['10.0.0.6'];
    const readsBefore = reads;
    assert.equal(names.accepts('10.0.0.5'), true, 'until they are read again');
    assert.equal(reads, readsBefore);
    now += MACHINE_NAMES_MAX_AGE_MS + 1;
    assert.equal(names.accepts('10.0.0.5'), false, 'then it is gone');
    assert.equal(reads, readsBefore + 2);
    assert.equal(names.accepts('pi.local'), true);
  });

  test('hostOf: a Host header as a browser would write it, or null', () => {
    for (const [header, host] of [
      ['Example.COM:8443', 'example.com'],
      ['example.com.', 'example.com'],
      ['127.1', '127.0.0.1'],
      ['0x7f.0.0.1', '127.0.0.1'],
      ['[::FFFF:127.0.0.1]', '127.0.0.1'],
      ['[2001:DB8:0::1]:80', '2001:db8::1'],
      ['a..b', null],
      ['evil.example/x', null],
      ['', null],
    ] as const) {
      assert.equal(hostOf(header), host, header);
    }
  });

  test('ALLOWED_HOSTS: names and addresses, comma- or space-separated; a port or a URL is refused by name', () => {
    assert.deepEqual(readSettings({}).allowedHosts, []);
    assert.deepEqual(
      readSettings({ ALLOWED_HOSTS: ' Tributary.Home.Arpa, 192.168.1.10 fd00::1,[fd00::2]' })
        .allowedHosts,
      ['tributary.home.arpa', '192.168.1.10', 'fd00::1', 'fd00::2'],
    );
    for (const bad of ['tributary.home.arpa:8443', 'https://tributary.home.arpa', 'a/b', 'x_y!']) {
      assert.throws(
        () => readSettings({ ALLOWED_HOSTS: bad }),
        (err: Error) =>
          err instanceof SettingsError &&
          err.message ===
            'ALLOWED_HOSTS must list host names or IP addresses without scheme or port ' +
              `(e.g. tributary.home.arpa,192.168.1.10), got '${bad}'`,
        bad,
      );
    }
  });
});
