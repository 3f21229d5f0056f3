import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkInfo } from '../src/api/schema';
import { senderAddress, senderCommands, senderPorts } from '../src/lib/commands';
import { engineStatus } from './engine-status';

const network = (engine_bind: string | null): NetworkInfo => ({
  hostname: 'pi',
  addresses: [
    { interface: 'eth0', family: 'IPv4', address: '192.168.1.10' },
    { interface: 'eth0', family: 'IPv6', address: 'fd00::10' },
  ],
  engine_bind,
});

test('the address senders use: the engine bind, else the page host, else a LAN address', () => {
  assert.equal(senderAddress(network('10.0.0.5'), 'tributary.local'), '10.0.0.5');
  assert.equal(senderAddress(network(null), 'tributary.local'), 'tributary.local');
  assert.equal(senderAddress(network(null), '192.168.1.10'), '192.168.1.10');
  assert.equal(senderAddress(network(null), 'localhost'), '192.168.1.10');
  assert.equal(senderAddress(network(null), '127.0.0.1'), '192.168.1.10');
  assert.equal(senderAddress(network(null), '[::1]'), '192.168.1.10');
  assert.equal(senderAddress(null, 'localhost'), 'localhost');
});

const engine = (scream: number[], rtp: number[]) =>
  engineStatus({ uptime_s: 1, ports: { scream, tagged: null, rtp } });

test('ports come from the engine (4010 preferred), the documented defaults when it has none', () => {
  assert.deepEqual(senderPorts(engine([16401, 4010], [40000])), { scream: 4010, rtp: 40000 });
  assert.deepEqual(senderPorts(engine([51234], [51236])), { scream: 51234, rtp: 51236 });
  assert.deepEqual(senderPorts(null), { scream: 4010, rtp: 40000 });
});

test('the commands are the documented ones, filled in', () => {
  const c = senderCommands('192.168.1.10', { scream: 4010, rtp: 40000 });
  assert.match(c.windows, /UnicastIPv4 \/t REG_SZ \/d 192\.168\.1\.10 \/f/);
  assert.match(c.windows, /UnicastPort \/t REG_DWORD \/d 4010 \/f/);
  assert.match(c.ffmpeg, /-c:a pcm_s16be/);
  assert.match(c.ffmpeg, /"rtp:\/\/192\.168\.1\.10:40000\?pkt_size=1164"/);
  assert.match(c.pulseaudio, /destination_ip=192\.168\.1\.10 port=40000 mtu=1152/);
  assert.match(
    senderCommands('fd00::10', { scream: 4010, rtp: 5004 }).ffmpeg,
    /rtp:\/\/\[fd00::10\]:5004/,
  );
});
