// The tone measurement the SAP scenarios assert with (within 1 Hz): exact on the frequencies a
// receiver really plays, such as PulseAudio's 998.000 Hz (a 1 kHz tone under its first 2 per
// mille rate step), which a DFT on a 5 Hz grid over one second cannot see (every grid point is
// a null of an integer frequency off the grid: it once reported 4990 Hz).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { measureTone } from './scenarios/tone.js';

const RATE = 48000;

/** `seconds` of a sine at `hz`, quantised to 16 bits as parec records it, plus `noise`. */
function sine(hz: number, seconds: number, amplitude = 0.0884, noise = 0): Float64Array {
  const x = new Float64Array(Math.round(seconds * RATE));
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  for (let i = 0; i < x.length; i++) {
    const v = amplitude * Math.sin((2 * Math.PI * hz * i) / RATE + 1.1) + noise * random();
    x[i] = Math.round(v * 32767) / 32768;
  }
  return x;
}

describe('measuring a recorded tone', () => {
  test('integer frequencies off a 5 Hz grid, the ones PulseAudio plays, to 0.01 Hz', () => {
    for (const hz of [998, 997, 1002, 1497, 698.586, 1000, 4999]) {
      const tone = measureTone(sine(hz, 1), RATE);
      assert.ok(Math.abs(tone.hz - hz) < 0.01, `${hz} Hz measured as ${tone.hz}`);
      assert.ok(Math.abs(tone.rms - 0.0884 / Math.SQRT2) < 0.001, `level ${tone.rms}`);
    }
  });

  test('with noise 30 dB down', () => {
    const tone = measureTone(sine(998, 2, 0.0884, 0.0884 / 10), RATE);
    assert.ok(Math.abs(tone.hz - 998) < 0.01, `${tone.hz}`);
  });

  test('over the longest steady stretch: a dropout is left out and counted', () => {
    const x = sine(1000.5, 2);
    x.fill(0, 30000, 36000);
    const tone = measureTone(x, RATE);
    assert.ok(Math.abs(tone.hz - 1000.5) < 0.01, `${tone.hz}`);
    assert.ok(tone.seconds > 1.2 && tone.seconds < 1.3, `${tone.seconds} s`);
    assert.ok(tone.unsteady_blocks >= 12, `${tone.unsteady_blocks} blocks`);
  });

  test('silence has no tone', () => {
    const tone = measureTone(new Float64Array(RATE), RATE);
    assert.equal(tone.hz, 0);
    assert.equal(tone.seconds, 0);
  });
});
