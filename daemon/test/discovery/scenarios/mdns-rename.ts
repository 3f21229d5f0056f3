// The advertiser under churn, as the soak drives it: sinks renamed and their TXT changed while
// other entries stay. Another mDNS endpoint in the namespace listens to everything sent and asks
// afresh, as a browser started later would. Defects this reproduces (found by the soak):
// - a rename's goodbye took every other instance's PTR and the host's address out of the
//   responder (bonjour-service's unregister drops all records of a name and type), so a later
//   PTR query was answered with the renamed entry only;
// - a TXT changed within the first seconds was announced again with its old value (the
//   re-announcements repeated the records the service was published with);
// - each renamed service stayed in memory until its next re-announcement, up to 40 min later.
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseConfigText } from '../../../src/config/documents.js';
import type { Config } from '../../../src/schema/files.js';
import { silentLog } from '../../../src/services/discovery/log.js';
import { MdnsAdvertiser } from '../../../src/services/discovery/mdns-advertiser.js';
import {
  MdnsEndpoint,
  type MdnsPacket,
  type MdnsRecord,
} from '../../../src/services/discovery/mdns-endpoint.js';

const TYPE = '_tributary._tcp.local';

const house = (kitchen: string, volume: number): Pick<Config, 'sinks' | 'sources'> => {
  const text = `
sinks:
  - name: ${kitchen}
    config_id: 0b6a5c1e-3d2f-4a8b-9c7d-1e2f3a4b5c6d
    ip: 192.168.1.51
    volume: ${volume}
  - name: Hall
    config_id: 1c7b6d2f-4e3a-4b9c-8d8e-2f3a4b5c6d7e
    ip: 192.168.1.52
sources:
  - name: Desk
    config_id: 2d8c7e3a-5f4b-4cad-9e9f-3a4b5c6d7e8f
    ip: 192.168.1.20
`;
  return parseConfigText(text, 'config.yaml').value as never;
};

const txtOf = (r: MdnsRecord) =>
  (Array.isArray(r.data) ? r.data : [r.data]).map((b) => String(b)).join(' ');

export default async () => {
  assert.ok(networkInterfaces().tr0, 'the namespace needs its veth pair (kernel module veth)');
  const endpoint = await MdnsEndpoint.open(silentLog);
  const listener = await MdnsEndpoint.open(silentLog);
  assert.equal(endpoint.state, 'running', endpoint.error ?? '');
  const heard: { at: number; records: MdnsRecord[] }[] = [];
  listener.mdns.on('response', ((packet: MdnsPacket) => {
    heard.push({ at: performance.now(), records: [...packet.answers, ...packet.additionals] });
  }) as never);
  const advertiser = new MdnsAdvertiser(endpoint, silentLog);
  try {
    await advertiser.start('tributary', 8443);
    assert.equal(advertiser.hostname, 'tributary.local');
    await advertiser.update(house('Kitchen', 0.5));
    // The TXT changes 0.3 s after the first announcement.
    await sleep(300);
    const changedAt = performance.now();
    await advertiser.update(house('Kitchen', 0.25));
    // Long enough for every announcement the publication schedules (0, 1 and 3 s).
    await sleep(3500);
    const staleTxt = heard.filter(
      (h) =>
        h.at > changedAt + 50 &&
        h.records.some(
          (r) =>
            r.type === 'TXT' &&
            r.ttl > 0 &&
            r.name.startsWith('Kitchen') &&
            txtOf(r).includes('volume=0.50'),
        ),
    ).length;
    // Renamed five times.
    for (let n = 1; n <= 5; n++) {
      const before = advertiser.advertised.find((f) => f.startsWith('Kitchen'));
      await advertiser.update(house(`Kitchen ${n}`, 0.25));
      assert.ok(before && !advertiser.advertised.includes(before), `${before} still advertised`);
    }
    // A browser starting now: who answers for the service type, and for the host?
    heard.length = 0;
    listener.query(TYPE, 'PTR');
    listener.query('tributary.local', 'A');
    await sleep(1500);
    const answered = new Set(
      heard.flatMap((h) =>
        h.records
          .filter((r) => r.type === 'PTR' && r.name === TYPE && r.ttl > 0)
          .map((r) => String(r.data)),
      ),
    );
    const address = heard.some((h) =>
      h.records.some((r) => r.type === 'A' && r.name === 'tributary.local' && r.ttl > 0),
    );
    return {
      ptr_answers: [...answered].sort(),
      host_address_answered: address,
      stale_txt_announcements: staleTxt,
      records_held: endpoint.book.size,
      host_addresses: Object.values(networkInterfaces())
        .flat()
        .filter((a) => a && !a.internal && a.family === 'IPv4').length,
    };
  } finally {
    advertiser.stop();
    await endpoint.close();
    await listener.close();
  }
};
