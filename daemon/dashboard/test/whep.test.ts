import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { preferStereo } from '../src/lib/whep';

// An offer Chromium made (recvonly audio): Opus on 111 without stereo.
const chromium = readFileSync(
  new URL('../../test/streams/chromium-offer.sdp', import.meta.url),
  'utf8',
);

test('preferStereo asks for stereo Opus on the Opus payload type, once, and nothing else', () => {
  const munged = preferStereo(chromium);
  assert.match(munged, /a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1\r\n/);
  assert.equal(munged.replace(';stereo=1;sprop-stereo=1', ''), chromium);
  assert.equal(preferStereo(munged), munged);
  const on109 = chromium.replaceAll(':111 ', ':109 ').replace(' 111 63 ', ' 109 63 ');
  assert.match(preferStereo(on109), /a=fmtp:109 [^\r]*;stereo=1;sprop-stereo=1\r\n/);
  const noOpus = chromium.replace(/a=rtpmap:111 opus\/48000\/2/, 'a=rtpmap:111 PCMU/8000');
  assert.equal(preferStereo(noOpus), noOpus);
});
