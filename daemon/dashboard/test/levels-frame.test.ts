// The binary levels frames of /ws/levels (encoding=binary): what the daemon encodes, the
// dashboard decodes to the same message (float32 values), a cut or lying frame is refused, and
// the page's levels socket hands a decoded frame to its listeners.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeLevelsFrame } from '../../src/schema/levels-frame';
import { LevelSocket, type LevelSocketLike } from '../src/api/levels';
import { decodeLevelsFrame } from '../src/api/schema';

const level = (config_id: string, name: string, full: boolean) => ({
  config_id,
  name,
  channels: 2,
  sample_rate: 48000,
  windows: 17,
  peak: new Float32Array([0.5, 0.25]),
  rms: new Float32Array([0.353, 0.1767]),
  ...(full
    ? {
        spectrum: Float32Array.from({ length: 64 }, (_, i) => -120 + i),
        wave_min: Float32Array.from({ length: 256 }, (_, i) => -i / 256),
        wave_max: Float32Array.from({ length: 256 }, (_, i) => i / 256),
      }
    : {}),
});

test('a frame decodes to the message encoded: float32 values, meter levels without arrays', () => {
  const message = { sinks: [level('k', 'Kitchen – é', true)], sources: [level('p', 'PC', false)] };
  const frame = encodeLevelsFrame(message);
  // A 4-byte length, the header, padding, then (2 + 2 + 64 + 256 + 256) + (2 + 2) float32.
  assert.equal(frame.length % 4, 0);
  const decoded = decodeLevelsFrame(frame.buffer as ArrayBuffer);
  assert.equal(decoded.type, 'levels');
  const [sink] = decoded.sinks;
  assert.equal(sink?.name, 'Kitchen – é');
  assert.deepEqual(sink?.peak, [0.5, 0.25]);
  assert.deepEqual(sink?.rms, Array.from(new Float32Array([0.353, 0.1767])));
  assert.equal(sink?.spectrum?.[10], -110);
  assert.deepEqual(sink?.wave_max, Array.from(message.sinks[0]!.wave_max!));
  assert.deepEqual(Object.keys(decoded.sources[0]!).sort(), [
    'channels',
    'config_id',
    'name',
    'peak',
    'rms',
    'sample_rate',
    'windows',
  ]);
  assert.deepEqual(decodeLevelsFrame(encodeLevelsFrame({ sinks: [], sources: [] })), {
    type: 'levels',
    sinks: [],
    sources: [],
  });
});

test('a cut frame, or one whose header lies about its sizes, is refused', () => {
  const frame = encodeLevelsFrame({ sinks: [level('k', 'Kitchen', true)], sources: [] });
  assert.throws(() => decodeLevelsFrame(frame.subarray(0, frame.length - 4)), RangeError);
  assert.throws(() => decodeLevelsFrame(frame.subarray(0, 3)), RangeError);
  const lying = frame.slice();
  new DataView(lying.buffer).setUint32(0, 1 << 30, true);
  assert.throws(() => decodeLevelsFrame(lying), RangeError);
  const text = new TextEncoder().encode('{"sinks":[]}');
  const object = new Uint8Array(4 + text.length);
  new DataView(object.buffer).setUint32(0, text.length, true);
  object.set(text, 4);
  assert.throws(
    () => decodeLevelsFrame(object),
    RangeError,
    'a header that is not [sinks, sources]',
  );
});

test('the levels socket decodes a binary frame for its listeners', () => {
  const sockets: LevelSocketLike[] = [];
  const feed = new LevelSocket(() => {
    const socket = { readyState: 0, send() {}, close() {} } as unknown as LevelSocketLike;
    sockets.push(socket);
    return socket;
  });
  const got: number[][] = [];
  feed.subscribe({ detail: 'meter' }, (m) => got.push(m.sinks[0]!.peak));
  const frame = encodeLevelsFrame({ sinks: [level('k', 'Kitchen', false)], sources: [] });
  sockets[0]?.onmessage?.call(sockets[0] as WebSocket, { data: frame.buffer } as MessageEvent);
  assert.deepEqual(got, [[0.5, 0.25]]);
});
