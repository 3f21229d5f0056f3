// The SAP rows of the golden packets (testdata/packets/expected.tsv, shared with the engine's
// and the firmware's tests): ffmpeg's real announcement, read by the daemon's SAP and SDP code
// (the engine does not read SDP; the daemon tells it each RTP source's format).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { decodeSap } from '../../src/services/discovery/sap-packet.js';
import { parseStream } from '../../src/services/discovery/sdp.js';

const folder = new URL('../../../testdata/packets/', import.meta.url);

test('every golden SAP packet reads as expected.tsv says', () => {
  const rows = readFileSync(new URL('expected.tsv', folder), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'))
    .filter(([, kind]) => kind === 'sap');
  assert.ok(rows.length >= 1, 'expected.tsv lists a SAP packet');
  for (const [file, , verdict, fields = ''] of rows) {
    assert.equal(verdict, 'ok', `${file}: only readable SAP packets are listed`);
    const want = Object.fromEntries(fields.split(' ').map((kv) => kv.split('=')));
    const packet = decodeSap(readFileSync(new URL(file!, folder)));
    assert.equal(packet.type, 'announce', file);
    assert.equal(String(packet.hash), want.msgid, file);
    assert.equal(packet.source, want.origin, file);
    assert.equal(packet.payloadType, 'application/sdp', file);
    const sdp = parseStream(packet.payload);
    assert.equal(String(sdp.port), want.port, file);
    assert.equal(sdp.address, want.connection, file);
    assert.equal(String(sdp.stream.payload_type), want.pt, file);
    assert.equal(sdp.stream.encoding, want.encoding, file);
    assert.equal(String(sdp.stream.sample_rate), want.rate, file);
    assert.equal(String(sdp.stream.channels), want.channels, file);
    assert.equal(sdp.unplayable, null, file);
  }
});
