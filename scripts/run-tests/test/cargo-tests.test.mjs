// The native suite's schedule: the fidelity tests alone, every program that starts a sound server
// in one lane, the rest in the other; and no test file that starts PulseAudio or PipeWire left
// out of the sound-server lane.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALONE, SOUND_SERVERS, STARTS_A_SOUND_SERVER, schedule } from '../cargo-tests.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const program = (crate, target) => ({ crate, target, executable: `/t/${target}` });
const names = (list) => list.map((p) => `${p.crate} ${p.target}`);

test('fidelity alone; sound servers in their own lane in the listed order; the rest after the engine lib', () => {
  const { alone, servers, others } = schedule([
    program('native/dsp', 'lib'),
    program('native/engine', 'pipewire'),
    program('native/engine', 'fidelity'),
    program('native/engine', 'rtp_peers'),
    program('native/engine', 'lib'),
    program('native/engine', 'pulseaudio'),
    program('native/receive', 'drift'),
    program('native/codec', 'a_new_file'),
  ]);
  assert.deepEqual(names(alone), ['native/engine fidelity']);
  assert.deepEqual(names(servers), [
    'native/engine pulseaudio',
    'native/receive drift',
    'native/engine pipewire',
  ]);
  assert.deepEqual(names(others), [
    'native/engine lib',
    'native/dsp lib',
    'native/engine rtp_peers',
    'native/codec a_new_file',
  ]);
});

/** Every `native/<crate>/tests/<file>.rs` as 'native/<crate> <file>', with its source. */
function testFiles() {
  const native = join(root, 'native');
  return readdirSync(native)
    .filter((crate) => existsSync(join(native, crate, 'tests')))
    .flatMap((crate) =>
      readdirSync(join(native, crate, 'tests'))
        .filter((f) => f.endsWith('.rs'))
        .map((f) => ({
          name: `native/${crate} ${f.slice(0, -3)}`,
          source: readFileSync(join(native, crate, 'tests', f), 'utf8'),
        })),
    );
}

test('every test file that starts a sound server runs in the sound-server lane or alone', () => {
  const files = testFiles();
  const starting = files.filter((f) => STARTS_A_SOUND_SERVER.test(f.source)).map((f) => f.name);
  assert.ok(starting.includes('native/engine pulseaudio'), `found: ${starting.join(', ')}`);
  assert.deepEqual(
    starting.filter((name) => !SOUND_SERVERS.includes(name) && !ALONE.includes(name)),
    [],
  );
  // And no listed name is stale.
  const all = files.map((f) => f.name);
  assert.deepEqual(
    [...SOUND_SERVERS, ...ALONE].filter((name) => !all.includes(name)),
    [],
  );
});
