// mDNS against Avahi: avahi-browse lists the server and every sink and source with their TXT
// fields and resolves tributary.local; a fake device published with avahi-publish (and its
// settings API served here) appears, becomes a sink, syncs volume both ways, keeps its sink
// when it moves to another address and host name, and takes the sink with it when it goes:
// with a goodbye (within about a second), and silently (avahi-daemon stopped).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAvahi } from './avahi.js';
import { get, type SinkView as Sink, waitFor, withLab } from './lab.js';

const CLEANUP_S = 4;
const DEVICE_ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const config = `
sinks:
  - name: Kitchen
    ip: 192.168.1.51
    sample_rate: 44100
sources:
  - name: Desk
    ip: 192.168.1.20
sap:
  enabled: false
mdns:
  auto_add_devices: true
  cleanup_timeout: ${CLEANUP_S}
  browse_interval: 1
  sync_interval: 1
`;

interface Device {
  id: string;
  ip: string | null;
  gone: boolean;
  entry: string | null;
}

export default () =>
  withLab(async (lab) => {
    assert.ok(networkInterfaces().tr0, 'the namespace needs its veth pair (kernel module veth)');
    const avahi = await startAvahi(lab);
    // Another host has tributary.local: probing finds it and the server takes tributary-2.local.
    const squatter = avahi.publish(['-a', '-R', 'tributary.local', '10.77.0.50']);
    await waitFor(
      'the other tributary.local',
      () => /Established/.test(squatter.output()) || undefined,
      10_000,
    );
    const daemon = await lab.daemon(config, { ENGINE: 'off' });
    const sinks = () => get<Sink[]>(daemon, '/sinks');
    const device = async () => (await sinks()).find((s) => s.config_id === DEVICE_ID);

    // avahi-browse sees the server and its entries with their TXT fields.
    const entries = await waitFor(
      'avahi-browse to list Tributary',
      async () => {
        const list = await avahi.browse('_tributary._tcp');
        return list.some((e) => e.name === 'Desk (source)') ? list : undefined;
      },
      20_000,
      () => daemon.output(),
    );
    const kitchen = (await sinks()).find((s) => s.name === 'Kitchen')!;
    const server = entries.find((e) => e.name === 'Tributary')!;
    assert.ok(server, JSON.stringify(entries));
    assert.equal(server.host, 'tributary-2.local');
    assert.equal(server.txt.api, '/api');
    assert.match(server.address, /^10\.77\.0\.[12]$/, 'the A record of tributary.local');
    const sinkTxt = entries.find((e) => e.name === 'Kitchen (sink)')!.txt;
    assert.deepEqual(
      [
        sinkTxt.id,
        sinkTxt.ip,
        sinkTxt.bit_depth,
        sinkTxt.sample_rate,
        sinkTxt.channels,
        sinkTxt.channel_layout,
      ],
      [kitchen.config_id, '192.168.1.51', '16', '44100', '2', 'stereo'],
    );
    const sourceTxt = entries.find((e) => e.name === 'Desk (source)')!.txt;
    assert.equal(sourceTxt.ip, '192.168.1.20');
    assert.equal(sourceTxt.type, 'scream');
    assert.match(sourceTxt.version ?? '', /^\d+\.\d+\.\d+/);
    const https = await avahi.browse('_https._tcp');
    assert.ok(
      https.some((e) => e.name === 'Tributary' && e.port === Number(new URL(daemon.apiUrl).port)),
    );
    // A changed sink is re-announced with its new TXT.
    assert.equal((await daemon.call('GET', '/sinks/Kitchen/volume/0.25')).status, 200);
    await waitFor(
      'the new TXT',
      async () =>
        (await avahi.browse('_tributary._tcp')).find((e) => e.name === 'Kitchen (sink)')?.txt
          .volume === '0.25' || undefined,
      10_000,
    );

    // The fake device: its settings API here, its records published by Avahi.
    execFileSync('ip', ['addr', 'add', '10.77.0.21/32', 'dev', 'lo']);
    const received: Record<string, unknown>[] = [];
    const http = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/api/settings') received.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => http.listen(8080, '10.77.0.21', () => resolve()));
    lab.atEnd(() => http.close());
    const txt = (ip: string, volume: string, rev: number) => [
      `id=${DEVICE_ID}`,
      `ip=${ip}`,
      'type=scream',
      'bit_depth=16',
      'sample_rate=48000',
      'channels=2',
      'channel_layout=stereo',
      'name=Fake Speaker',
      'mode=usb_receiver',
      `volume=${volume}`,
      `rev=${rev}`,
    ];
    const publishDevice = (
      instance: string,
      host: string,
      ip: string,
      volume: string,
      rev: number,
    ) => [
      avahi.publish(['-a', '-R', host, ip]),
      avahi.publish([
        '-s',
        '-H',
        host,
        instance,
        '_tributary-sink._udp',
        '4010',
        ...txt(ip, volume, rev),
      ]),
      avahi.publish(['-s', '-H', host, instance, '_http._tcp', '8080', `id=${DEVICE_ID}`]),
    ];
    const stop = (peers: { stop(): Promise<unknown> }[]) => Promise.all(peers.map((p) => p.stop()));

    let t0 = performance.now();
    let published = publishDevice('Fake Speaker', 'fake-speaker.local', '10.77.0.21', '0.80', 1);
    const added = await waitFor('the device to become a sink', device, 15_000, () =>
      daemon.output(),
    );
    const appearMs = performance.now() - t0;
    assert.deepEqual(
      [added.name, added.ip, added.port, added.volume],
      ['Fake Speaker', '10.77.0.21', 4010, 0.8],
    );
    assert.deepEqual(added.auto_added, { via: 'mdns', key: DEVICE_ID });

    // Tributary -> device: a volume set in Tributary is posted to the device's settings API.
    assert.equal((await daemon.call('PUT', '/sinks/Fake Speaker', { volume: 0.3 })).status, 200);
    t0 = performance.now();
    await waitFor(
      'the device to receive the volume',
      () => received.find((r) => r.volume === 0.3),
      10_000,
      () => daemon.output(),
    );
    const toDeviceMs = performance.now() - t0;
    // Device -> Tributary: the device's TXT says volume 0.55 (rev 2); the sink follows. A device
    // changes its records in place, without a goodbye; avahi-publish cannot, so the new records
    // go out (another instance of the same device id) before the old ones are withdrawn.
    t0 = performance.now();
    let next = publishDevice('Fake Speaker 2', 'fake-speaker-b.local', '10.77.0.21', '0.55', 2);
    await waitFor(
      'the sink to take the device volume',
      async () => ((await device())?.volume === 0.55 ? true : undefined),
      10_000,
      () => daemon.output(),
    );
    const fromDeviceMs = performance.now() - t0;
    await stop(published);
    published = next;

    // It moves to another address and host name: the same sink (config_id), the new address.
    next = publishDevice('Fake Speaker 3', 'fake-speaker-2.local', '10.77.0.22', '0.55', 2);
    const moved = await waitFor(
      'the sink to follow the device',
      async () => {
        const s = await device();
        return s?.ip === '10.77.0.22' ? s : undefined;
      },
      10_000,
      () => daemon.output(),
    );
    await stop(published);
    published = next;
    await sleep(1500); // past the goodbye of the old records: they do not take the sink away
    assert.equal(moved.name, 'Fake Speaker');
    assert.equal((await sinks()).filter((s) => s.config_id === DEVICE_ID).length, 1);
    const listed = await get<{ mdns: { devices: Device[] } }>(daemon, '/api/discovery');
    assert.deepEqual(
      listed.mdns.devices.map((d) => [d.id, d.ip, d.gone, d.entry]),
      [[DEVICE_ID, '10.77.0.22', false, 'Fake Speaker']],
    );

    // It goes: avahi-publish, stopped with SIGTERM, sends goodbyes (TTL 0); the sink goes about
    // a second later (RFC 6762 10.1), not cleanup_timeout later.
    t0 = performance.now();
    await stop(published);
    await waitFor(
      'the sink to go with the device',
      async () => ((await device()) ? undefined : true),
      (CLEANUP_S + 5) * 1000,
      () => daemon.output(),
    );
    const goodbyeMs = performance.now() - t0;

    // It comes back, then stops answering without a goodbye (avahi-daemon frozen).
    published = publishDevice('Fake Speaker', 'fake-speaker.local', '10.77.0.21', '0.55', 2);
    await waitFor('the device again', device, 15_000);
    avahi.daemon.child.kill('SIGSTOP');
    lab.atEnd(() => avahi.daemon.child.kill('SIGCONT'));
    t0 = performance.now();
    await waitFor(
      'the silent device to lose its sink',
      async () => ((await device()) ? undefined : true),
      (CLEANUP_S + 5) * 1000,
      () => daemon.output(),
    );
    const silentMs = performance.now() - t0;
    avahi.daemon.child.kill('SIGCONT');
    await sleep(100);
    assert.ok(
      (await sinks()).some((s) => s.name === 'Kitchen'),
      'sinks made by hand stay',
    );

    const status = await get<{ mdns: { malformed: number; hostname: string } }>(
      daemon,
      '/api/discovery',
    );
    return {
      appear_ms: Math.round(appearMs),
      volume_to_device_ms: Math.round(toDeviceMs),
      volume_from_device_ms: Math.round(fromDeviceMs),
      removed_after_goodbye_ms: Math.round(goodbyeMs),
      removed_after_silence_ms: Math.round(silentMs),
      cleanup_timeout_s: CLEANUP_S,
      hostname: status.mdns.hostname,
      // A device that re-publishes (new TXT, new address) within a second of its goodbye keeps
      // its sink: only the last goodbye removes it.
      removals_by_goodbye: (daemon.output().match(/is gone \(said goodbye\)/g) ?? []).length,
      malformed: status.mdns.malformed,
    };
  });
