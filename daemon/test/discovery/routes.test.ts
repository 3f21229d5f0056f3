import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { ConfigFileError, parseConfigText } from '../../src/config/documents.js';
import { deviceFromService } from '../../src/services/discovery/txt.js';
import { build, tempDir } from '../helpers.js';
import { heardStream, studioStream } from './heard-stream.js';

const ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('discovery API', () => {
  test('off (no DISCOVERY setting): GET /api/discovery and /api/stats say so', async (t) => {
    const app = await build(t);
    const res = await app.inject('/api/discovery');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.enabled, false);
    assert.deepEqual(
      [body.sap.state, body.mdns.state, body.sap.streams, body.mdns.devices],
      ['off', 'off', [], []],
    );
    const stats = (await app.inject('/api/stats')).json();
    // /api/stats has the same states and counters, without the lists.
    const { streams: _s, ...sap } = body.sap;
    const { devices: _d, advertised: _a, ...mdns } = body.mdns;
    assert.deepEqual(stats.discovery, {
      enabled: false,
      sap,
      mdns: { ...mdns, advertised_total: 0 },
    });
  });

  test('/api/stats keeps no lists; /api/discovery lists a first page, the rest is paged', async (t) => {
    const app = await build(t);
    const heard = Array.from({ length: 130 }, (_, i) =>
      studioStream(5004, `239.1.${i >> 8}.${i & 255}`, `S${i}`, 1000 + i),
    );
    for (const s of heard) app.discovery.streams.heard(s);
    const stats = await app.inject('/api/stats');
    assert.equal(stats.json().discovery.sap.streams_total, 130);
    assert.equal(stats.json().discovery.sap.streams, undefined, 'no list in /api/stats');
    assert.ok(stats.body.length < 8000, `/api/stats is ${stats.body.length} bytes`);
    const status = (await app.inject('/api/discovery')).json();
    assert.equal(status.sap.streams_total, 130);
    assert.deepEqual(
      status.sap.streams.map((s: { name: string }) => s.name),
      heard.slice(0, 100).map((s) => s.name),
      'the first 100, oldest first',
    );
    const page = (await app.inject('/api/discovery/streams?offset=120&limit=20')).json();
    assert.deepEqual(
      [page.total, page.offset, page.limit, page.items.map((s: { name: string }) => s.name)],
      [130, 120, 20, heard.slice(120).map((s) => s.name)],
    );
    const first = (await app.inject('/api/discovery/streams')).json();
    assert.deepEqual([first.offset, first.limit, first.items.length], [0, 100, 100]);
    const devices = (await app.inject('/api/discovery/devices?limit=5')).json();
    assert.deepEqual(devices, { total: 0, offset: 0, limit: 5, items: [] });
    for (const [query, path] of [
      ['limit=501', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
    ] as const) {
      const res = await app.inject(`/api/discovery/streams?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.match(JSON.stringify(res.json().details), new RegExp(path), res.body);
    }
  });

  test('max_streams: streams beyond it are not kept; those kept are never pushed out', async (t) => {
    const app = await build(t);
    const put = await app.inject({
      method: 'PUT',
      url: '/api/discovery/settings',
      payload: { sap: { listener: { max_streams: 3 } } },
    });
    assert.equal(put.statusCode, 200, put.body);
    for (const payload of [{ max_streams: 0 }, { max_streams: 4097 }, { max_streams: 1.5 }]) {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/discovery/settings',
        payload: { sap: { listener: payload } },
      });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().details[0].path, 'sap.listener.max_streams');
    }
    // The capacity follows the configuration (no listener runs here: DISCOVERY is off).
    await app.discovery.settled();
    const results = [1, 2, 3, 4, 5].map((i) =>
      app.discovery.streams.heard(studioStream(5004, `239.1.1.${i}`, `S${i}`, i)),
    );
    assert.deepEqual(results, ['added', 'added', 'added', 'full', 'full']);
    assert.equal(app.discovery.streams.heard(studioStream(5004, '239.1.1.1', 'S1', 1)), 'same');
  });

  test('settings: defaults, a partial change saved to config.yaml, bad values refused by field', async (t) => {
    const app = await build(t);
    const initial = (await app.inject('/api/discovery/settings')).json();
    assert.deepEqual(initial.sap.listener, {
      multicast_groups: ['224.2.127.254', '224.0.0.56', '239.255.255.255'],
      port: 9875,
      auto_add_sources: false,
      cleanup_timeout: 30,
      add_to_group: null,
      max_streams: 256,
    });
    assert.deepEqual([initial.sap.announcer.interval, initial.sap.announcer.ttl], [5, 64]);
    assert.deepEqual(
      [initial.mdns.hostname, initial.mdns.browse_interval, initial.mdns.sync_interval],
      ['tributary', 5, 10],
    );

    const put = await app.inject({
      method: 'PUT',
      url: '/api/discovery/settings',
      payload: {
        sap: { listener: { auto_add_sources: true, cleanup_timeout: 12 } },
        mdns: { hostname: 'studio' },
      },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().sap.listener.port, 9875, 'fields left out keep their value');
    const file = parse(readFileSync(join(app.dir, 'config.yaml'), 'utf8'));
    assert.equal(file.sap.listener.auto_add_sources, true);
    assert.equal(file.sap.listener.cleanup_timeout, 12);
    assert.equal(file.mdns.hostname, 'studio');

    for (const [payload, path, rule] of [
      [
        { sap: { listener: { multicast_groups: ['10.0.0.1'] } } },
        'sap.listener.multicast_groups[0]',
        /IPv4 multicast/,
      ],
      [{ sap: { announcer: { ttl: 0 } } }, 'sap.announcer.ttl', />= 1/],
      [{ mdns: { hostname: 'My Server' } }, 'mdns.hostname', /host name label/],
      [{ mdns: { browse_interval: 0.5 } }, 'mdns.browse_interval', /integer/],
      [{ sap: { listen: {} } }, 'sap.listen', /not a known field/],
    ] as const) {
      const res = await app.inject({ method: 'PUT', url: '/api/discovery/settings', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      const problem = res.json().details.find((d: { path: string }) => d.path === path);
      assert.ok(problem, `${path} in ${res.body}`);
      assert.match(problem.rule, rule);
    }
  });

  test('a heard stream or device is added by hand: made by hand (never removed), following it', async (t) => {
    const app = await build(t);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/api/discovery/streams/nope/add', payload: {} }))
        .statusCode,
      404,
    );
    const studio = studioStream();
    app.discovery.streams.heard(studio);
    const id = encodeURIComponent(studio.id);
    const res = await app.inject({
      method: 'POST',
      url: `/api/discovery/streams/${id}/add`,
      payload: {},
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      [res.json().name, res.json().auto_added, res.json().rtp.sap, res.json().rtp.listen_ip],
      ['Studio', null, true, '239.1.1.1'],
    );
    const again = await app.inject({
      method: 'POST',
      url: `/api/discovery/streams/${id}/add`,
      payload: {},
    });
    assert.equal(again.statusCode, 409);
    assert.match(again.json().message, /source 'Studio' plays it/);
    const listed = (await app.inject('/api/discovery')).json().sap.streams[0];
    assert.deepEqual([listed.source, listed.format, listed.playable], ['Studio', 'S16BE', true]);

    const talk = heardStream(
      'v=0\no=- 9 1 IN IP4 10.0.0.6\ns=Talk\nc=IN IP4 239.1.1.9\nm=audio 5004 RTP/AVP 111\na=rtpmap:111 opus/48000/2\n',
      '10.0.0.6',
      2,
    );
    app.discovery.streams.heard(talk);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/discovery/streams/${encodeURIComponent(talk.id)}/add`,
      payload: {},
    });
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().message, /opus/);

    app.discovery.devices.heard(
      deviceFromService(
        {
          name: 'Porch',
          fqdn: 'Porch._tributary-sink._udp.local',
          port: 4010,
          txt: { id: ID, ip: '10.0.0.21', type: 'scream', sample_rate: '44100', volume: '0.5' },
        },
        'sink',
        [],
      ),
    );
    const sink = await app.inject({
      method: 'POST',
      url: `/api/discovery/devices/${ID}/add`,
      payload: { name: 'Back Porch' },
    });
    assert.equal(sink.statusCode, 201, sink.body);
    assert.deepEqual(
      [
        sink.json().config_id,
        sink.json().name,
        sink.json().ip,
        sink.json().sample_rate,
        sink.json().volume,
        sink.json().auto_added,
      ],
      [ID, 'Back Porch', '10.0.0.21', 44100, 0.5, null],
    );
    const device = (await app.inject('/api/discovery')).json().mdns.devices[0];
    assert.equal(device.entry, 'Back Porch');
    assert.equal(
      (await app.inject({ method: 'POST', url: `/api/discovery/devices/${ID}/add`, payload: {} }))
        .statusCode,
      409,
    );
  });
});

describe('sap and mdns in config.yaml', () => {
  test('left out: every default; given in part: the rest filled in', () => {
    const empty = parseConfigText('sinks: []\n', 'config.yaml').value;
    assert.equal(empty.sap.enabled, true);
    assert.equal(empty.sap.announcer.interval, 5);
    assert.equal(empty.mdns.cleanup_timeout, 30);
    const part = parseConfigText(
      'sap:\n  listener:\n    port: 19875\nmdns:\n  enabled: false\n',
      'c.yaml',
    ).value;
    assert.deepEqual(
      [
        part.sap.listener.port,
        part.sap.listener.cleanup_timeout,
        part.sap.announcer.ttl,
        part.sap.listener.max_streams,
      ],
      [19875, 30, 64, 256],
      'a file written before max_streams existed loads with its default',
    );
    assert.deepEqual([part.mdns.enabled, part.mdns.hostname], [false, 'tributary']);
  });

  test('a bad value is refused with its path, and the daemon would not start on it', (t) => {
    const dir = tempDir(t);
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'sap:\n  listener:\n    port: 0\n    multicast_groups: [224.0.0.56, 224.0.0.56]\nmdns:\n  hostname: -x\n',
    );
    assert.throws(
      () => parseConfigText(readFileSync(file, 'utf8'), file),
      (err: unknown) => {
        assert.ok(err instanceof ConfigFileError);
        const paths = err.problems.map((p) => p.path);
        for (const p of ['sap.listener.port', 'sap.listener.multicast_groups', 'mdns.hostname']) {
          assert.ok(paths.includes(p), `${p} in ${paths}`);
        }
        return true;
      },
    );
  });
});

test('a hand edit of the sap section merges with an API change of the mdns section', async (t) => {
  const app = await build(t);
  const file = join(app.dir, 'config.yaml');
  const opened = readFileSync(file, 'utf8'); // the editor opens the file
  const put = await app.inject({
    method: 'PUT',
    url: '/api/discovery/settings',
    payload: { mdns: { hostname: 'studio' } },
  });
  assert.equal(put.statusCode, 200);
  writeFileSync(file, opened.replace('port: 9875', 'port: 19875')); // and saves its own change
  await app.configStore.reload();
  const settings = (await app.inject('/api/discovery/settings')).json();
  assert.equal(settings.sap.listener.port, 19875, 'the hand edit');
  assert.equal(settings.mdns.hostname, 'studio', 'the API change');
});
