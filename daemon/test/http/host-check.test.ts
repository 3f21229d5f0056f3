// The Host check (issue 26, part 2): a request naming a host that is not this server (DNS
// rebinding: the attacker's name re-pointed at this machine, its page then same-origin with
// it) is answered 421 with the name and the setting that would accept it, on the API, its
// WebSockets and the dashboard's files; the machine's own names and addresses, localhost, the
// mDNS name and ALLOWED_HOSTS are accepted.
import assert from 'node:assert/strict';
import { hostname, networkInterfaces } from 'node:os';
import { describe, test } from 'node:test';
import { build } from '../helpers.js';

const interfaceAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((i) => i !== undefined)
  .map((i) => (i.family === 'IPv6' ? `[${i.address.replace(/%.*$/, '')}]` : i.address));

describe('the Host header', () => {
  test('the issue: Host evil.example:22443 with a matching Origin is 421 (API, WebSocket, dashboard), naming the host and ALLOWED_HOSTS', async (t) => {
    const app = await build(t);
    const host = 'evil.example:22443';
    const headers = { host, origin: `https://${host}`, 'sec-fetch-site': 'same-origin' };
    for (const [method, url] of [
      ['GET', '/api/config'],
      ['GET', '/sinks'],
      ['PUT', '/api/favorites'],
      ['GET', '/'],
      ['GET', '/api/health'],
    ] as const) {
      const res = await app.inject({
        method,
        url,
        headers,
        ...(method === 'PUT' ? { payload: [] } : {}),
      });
      assert.equal(res.statusCode, 421, `${method} ${url}: ${res.body}`);
      const body = res.json();
      assert.equal(body.code, 'TRIBUTARY_UNKNOWN_HOST');
      assert.equal(body.error, 'Misdirected Request');
      assert.equal(
        body.message,
        "This server does not answer to the name 'evil.example:22443' (the request's Host " +
          'header). If it is a name of this server, add evil.example to the setting ' +
          'ALLOWED_HOSTS (comma-separated) and restart it',
      );
      assert.deepEqual(body.details[0], {
        path: 'headers.host',
        keyword: 'host',
        rule: 'must name this server: one of its addresses, localhost, its host name, its .local name, or a name in ALLOWED_HOSTS',
        value: host,
        message:
          "Host 'evil.example:22443' is not a name of this server (add evil.example to ALLOWED_HOSTS)",
      });
    }
    await assert.rejects(
      app.injectWS('/ws/config', { headers }),
      /Unexpected server response: 421/,
    );
    const { refusals } = (await app.inject('/api/stats')).json();
    assert.equal(refusals.unknown_host, 6);
    assert.match(refusals.last.message, /Host 'evil\.example:22443' is not a name of this server/);
  });

  test('accepted: loopback, localhost, every interface address, the host name and its .local name, the mDNS name (and its -2 fallback), ALLOWED_HOSTS; with or without a port', async (t) => {
    const app = await build(t, {
      allowedHosts: ['Tributary.Home.Arpa', '192.0.2.7', '2001:db8::7'],
    });
    const label = hostname().split('.')[0]!.toLowerCase();
    const accepted = [
      'localhost',
      'LOCALHOST:8443',
      'localhost.',
      '127.0.0.1',
      '127.0.0.1:443',
      '127.8.9.10:8443',
      '127.1', // a browser's URL parser reads it as 127.0.0.1
      '[::1]',
      '[::1]:8443',
      '[::ffff:127.0.0.1]:8443',
      ...interfaceAddresses,
      hostname(),
      `${label}.local`,
      `${label}.local.:8443`,
      'tributary.local',
      'tributary-2.local:443',
      'tributary.home.arpa',
      'TRIBUTARY.HOME.ARPA.:8443',
      '192.0.2.7:8443',
      '[2001:db8::7]',
      '[2001:db8:0:0:0:0:0:7]:8443',
    ];
    for (const host of accepted) {
      const res = await app.inject({ url: '/api/health', headers: { host } });
      assert.equal(res.statusCode, 200, `Host: ${host}: ${res.body}`);
    }
    const refused = [
      'evil.example',
      'tributary.local.evil.example',
      'localhost.evil.example',
      'evil.localhost.example',
      'home.arpa',
      'www.tributary.home.arpa',
      '127.0.0.1.nip.io',
      `${label}.evil.example`,
      'tributary-x.local',
      'other.local',
      '[::2]',
      '192.0.2.8',
      '[fe80::1%25eth0]',
      'evil.example/phish?',
      'user@localhost',
      'localhost:99999',
      'localhost:',
      ' ',
    ];
    for (const host of refused) {
      const res = await app.inject({ url: '/api/health', headers: { host } });
      assert.equal(res.statusCode, 421, `Host: ${JSON.stringify(host)}: ${res.body}`);
    }
  });

  test("the mDNS name follows config.yaml's mdns.hostname", async (t) => {
    const app = await build(t);
    const health = (host: string) =>
      app.inject({ url: '/api/health', headers: { host } }).then((r) => r.statusCode);
    assert.equal(await health('living-room.local'), 421);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/discovery/settings',
      payload: { mdns: { hostname: 'living-room' } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await health('living-room.local'), 200);
    assert.equal(await health('living-room-3.local'), 200);
    assert.equal(await health('tributary.local'), 421);
  });
});
