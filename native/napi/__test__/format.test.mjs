import assert from 'node:assert/strict';
import { test } from 'node:test';
import { native } from './helpers.mjs';

const { parseFormat, parseLayout, EQ_BAND_COUNT } = native;

test('parseFormat normalises formats by the DSP core rules', () => {
  assert.deepEqual(parseFormat('L24:96000:6:5.1(SIDE)'), {
    sampleFormat: 's24be',
    rate: 96000,
    channels: 6,
    layout: '5.1(side)',
    mask: 0x60f,
    bits: 24,
    frameBytes: 18,
    text: 's24be:96000:6:5.1(side)',
  });
  assert.equal(parseFormat('s16le:44100:2').layout, 'stereo');
  assert.throws(() => parseFormat('s16le:44100:9'), /channels must be 1-8, got 9/);
  assert.throws(() => parseFormat('s16le:44100'), /FORMAT:RATE:CHANNELS/);
});

test('parseLayout knows the named layouts and masks', () => {
  assert.deepEqual(parseLayout('7.1'), { name: '7.1', mask: 0x63f, channels: 8 });
  assert.deepEqual(parseLayout('0x3F'), { name: '5.1', mask: 0x3f, channels: 6 });
  assert.equal(parseLayout('4.0').name, 'surround');
  assert.throws(() => parseLayout('9.1'), /unknown channel layout '9\.1'/);
  assert.equal(EQ_BAND_COUNT, 18);
});
