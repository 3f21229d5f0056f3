// A deletion only counts from the host that announced the stream. ffmpeg announces a stream
// (added as a source); another host of the namespace (the other address of the veth pair) hears
// the announcement and replays it as a deletion, first with the SAP header's originating source copied (spoofed),
// then from ffmpeg's own address with another originating source: both are refused, counted and
// logged, and the stream and its source stay. ffmpeg's own deletion (SIGTERM) still removes them.
import assert from 'node:assert/strict';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeSap } from '../../../src/services/discovery/sap-packet.js';
import { get, waitFor, withLab } from './lab.js';
import { ffmpegToneSender } from './sap-peers.js';

/** How long the source is watched after the refusals (see its use). */
const FOREIGN_WAIT_MS = 1500;

const config = `
sap:
  listener:
    auto_add_sources: true
  announcer:
    enabled: false
mdns:
  enabled: false
`;

interface Source {
  name: string;
  auto_added: { via: string; key: string } | null;
}
interface Status {
  sap: {
    deletions: number;
    deletions_refused?: number;
    streams: { id: string; sender: string; sap_source: string }[];
  };
}

async function socketOn(address: string, port = 0): Promise<Socket> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  await new Promise<void>((resolve) => socket.bind(port, address, () => resolve()));
  return socket;
}

const send = (socket: Socket, packet: Buffer) =>
  new Promise<void>((resolve, reject) =>
    socket.send(packet, 9875, '224.2.127.254', (e) => (e ? reject(e) : resolve())),
  );

/** The same SAP packet as a deletion, its originating source replaced when `source` is given. */
function asDeletion(packet: Buffer, source?: string): Buffer {
  const out = Buffer.from(packet);
  out[0] = out[0]! | 0x04;
  if (source) Buffer.from(source.split('.').map(Number)).copy(out, 4);
  return out;
}

export default () =>
  withLab(async (lab) => {
    const daemon = await lab.daemon(config, { ENGINE: 'off' });
    const status = () => get<Status>(daemon, '/api/discovery');
    const added = async () =>
      (await get<Source[]>(daemon, '/sources')).filter((s) => s.auto_added?.via === 'sap');

    // The other host listens to SAP like any receiver and keeps ffmpeg's first announcement.
    const sniffer = await socketOn('0.0.0.0', 9875);
    sniffer.addMembership('224.2.127.254');
    lab.atEnd(() => sniffer.close());
    let heard: { packet: Buffer; from: RemoteInfo } | null = null;
    sniffer.on('message', (packet, from) => {
      if (!heard && decodeSap(packet).type === 'announce') heard = { packet, from };
    });

    const ffmpeg = ffmpegToneSender(lab, 60, 'sap', 'sap://224.2.127.254:5004?same_port=1');
    const [source] = await waitFor(
      'the announced stream to become a source',
      async () => {
        const list = await added();
        return list.length === 1 ? list : undefined;
      },
      15_000,
      () => daemon.output() + ffmpeg.output(),
    );
    const original = await waitFor('the sniffed announcement', () => heard ?? undefined, 5000);
    const header = decodeSap(original.packet);
    const [stream] = (await status()).sap.streams;
    assert.equal(stream?.sender, original.from.address);
    assert.equal(stream?.sap_source, header.source);

    // 1. From the other address of the veth pair, the SAP header copied: its origin looks right.
    const otherAddress = original.from.address === '10.77.0.1' ? '10.77.0.2' : '10.77.0.1';
    const other = await socketOn(otherAddress);
    lab.atEnd(() => other.close());
    await send(other, asDeletion(original.packet));
    // 2. From ffmpeg's own address, but naming another originating source.
    const sameAddress = await socketOn(original.from.address);
    lab.atEnd(() => sameAddress.close());
    await send(sameAddress, asDeletion(original.packet, '10.77.0.99'));
    // The witness that both were handled: both refusals counted (the listener decides, and
    // removes a stream it accepts a deletion for, in the same call). The stream list is read
    // after that decision; its source is removed from the configuration after the stream, so
    // that is read after FOREIGN_WAIT_MS, which the test holds to 3x the time ffmpeg's own
    // deletion takes to remove the source (measured below, the same path).
    await waitFor(
      'both deletions to be refused',
      async () => ((await status()).sap.deletions_refused ?? 0) >= 2 || undefined,
      5000,
    );
    const afterForeign = await status();
    await sleep(FOREIGN_WAIT_MS);
    const sourcesAfterForeign = await added();

    // 3. ffmpeg stops (SIGTERM): its own deletion removes the stream and its source.
    const t0 = performance.now();
    await ffmpeg.stop('SIGTERM');
    await waitFor(
      "ffmpeg's own deletion",
      async () => ((await added()).length === 0 ? true : undefined),
      5000,
      () => daemon.output(),
    );
    const ownDeletionMs = performance.now() - t0;
    return {
      announcer: { address: original.from.address, sap_source: header.source },
      other_host: otherAddress,
      source: source!.name,
      streams_after_foreign: afterForeign.sap.streams.map((s) => s.id),
      sources_after_foreign: sourcesAfterForeign.map((s) => s.name),
      deletions_read: afterForeign.sap.deletions,
      deletions_refused: afterForeign.sap.deletions_refused ?? null,
      refusals_logged: (daemon.output().match(/SAP: refused a deletion/g) ?? []).length,
      own_deletion_ms: Math.round(ownDeletionMs),
      foreign_wait_ms: FOREIGN_WAIT_MS,
    };
  });
