import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  frameTime,
  markerOnsets,
  matchMarkers,
  percentile,
  screamPacket,
} from '../receive-latency.mjs';

test('a Scream packet: 48 kHz 16-bit stereo header, the sample on both channels, clipped', () => {
  const b = screamPacket([0, 0.5, -1, 2]);
  assert.deepEqual([...b.subarray(0, 5)], [0x01, 16, 2, 0x03, 0x00]);
  assert.equal(b.length, 5 + 4 * 4);
  assert.equal(b.readInt16LE(5 + 4), 16384);
  assert.equal(b.readInt16LE(7 + 4), 16384);
  assert.equal(b.readInt16LE(5 + 8), -32767);
  assert.equal(b.readInt16LE(5 + 12), 32767, 'clipped');
});

test('marker onsets: the first loud sample after enough quiet, not every loud sample', () => {
  const x = new Array(100).fill(0.01);
  for (const i of [10, 11, 12, 30, 31, 60]) x[i] = i % 2 ? -0.5 : 0.5;
  assert.deepEqual(markerOnsets(x, 0.1, 20), [10, 60], '30 follows only 17 quiet samples');
  assert.deepEqual(markerOnsets(x, 0.1, 5), [10, 30, 60]);
});

test('frame time: the arrival of the first read that holds the frame', () => {
  const arrivals = [10, 20, 30, 40].map((frames) => ({ at: 100 + frames, frames }));
  assert.equal(frameTime(arrivals, 25), 130);
  assert.equal(frameTime(arrivals, 30), 140, 'frame 30 is the 31st: in the read of 40');
  assert.equal(frameTime(arrivals, 45), null, 'not recorded yet');
});

test('markers matched to onsets: one each, unheard ones and stray onsets counted', () => {
  const { latencies, missed, unexplained } = matchMarkers(
    [1000, 1500, 2000, 2500],
    [900, 1100, 1120, 2130, 2700],
  );
  assert.deepEqual(latencies, [100, 130, 200]);
  assert.equal(missed, 1, '1500 unheard');
  assert.equal(unexplained, 2, '900 before any marker, 1120 a second onset');
});

test('nearest-rank percentiles', () => {
  const v = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(v, 50), 50);
  assert.equal(percentile(v, 99), 99);
  assert.equal(percentile([7], 99), 7);
  assert.equal(percentile([], 50), null);
});
