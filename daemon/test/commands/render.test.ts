// `tributary render` on real files: ffmpeg makes the inputs, ffprobe and sample analysis check
// the outputs.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/commands/render.js';
import { parseEq, parseRenderArgs, resolveFormats } from '../../src/commands/render-args.js';
import { progressLine } from '../../src/commands/render-progress.js';
import { parseWav } from '../../src/commands/render-wav.js';
import { cli } from '../daemon-process.js';
import { runCommand, tempDir } from '../helpers.js';

/** Runs the command in this process (fast); the terminal test below spawns the real CLI. */
async function render(args: string[], env: Record<string, string> = {}) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await runCommand(run, args);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const spawnRender = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, 'render', ...args], { encoding: 'utf8' });

/** ffmpeg writes a test signal file. */
function ffmpeg(out: string, filter: string, ...opts: string[]) {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', filter, ...opts, out]);
}

function probe(file: string): Record<string, string> {
  const text = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,sample_rate,channels,channel_layout,duration',
      '-of',
      'default=nw=1',
      file,
    ],
    { encoding: 'utf8' },
  );
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
}

/** Channel `c` of a 16-bit little-endian WAV as floats. */
function wavChannel(file: string, c: number): Float64Array {
  const buf = readFileSync(file);
  const info = parseWav(buf, buf.length, file);
  assert.equal(info.sampleFormat, 's16le');
  const frames = info.dataBytes / (2 * info.channels);
  const out = new Float64Array(frames);
  for (let n = 0; n < frames; n++)
    out[n] = buf.readInt16LE(info.dataOffset + 2 * (n * info.channels + c)) / 32768;
  return out;
}

/** Amplitude of the `freq` component (least squares on sin/cos), from sample `from`. */
function amplitude(x: Float64Array, freq: number, rate: number, from = 0): number {
  let ss = 0;
  let cc = 0;
  let sc = 0;
  let sy = 0;
  let cy = 0;
  for (let n = from; n < x.length; n++) {
    const s = Math.sin((2 * Math.PI * freq * n) / rate);
    const c = Math.cos((2 * Math.PI * freq * n) / rate);
    ss += s * s;
    cc += c * c;
    sc += s * c;
    sy += s * x[n]!;
    cy += c * x[n]!;
  }
  const det = ss * cc - sc * sc;
  const a = (sy * cc - cy * sc) / det;
  const b = (cy * ss - sy * sc) / det;
  return Math.hypot(a, b);
}

const db = (ratio: number) => 20 * Math.log10(ratio);

test('44.1 kHz WAV to 48 kHz WAV with EQ and volume: ffprobe and the samples agree', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.wav');
  const output = join(dir, 'out.wav');
  // Left: b9's centre (1046.5 Hz), which --eq b9=2 raises by 6.02 dB. Right: 130.81 Hz, three
  // octaves below, where b9 changes nothing measurable (< 0.02 dB). The right tone's level is
  // the volume alone, the left's over the right's the EQ alone.
  ffmpeg(
    input,
    'sine=frequency=1046.5:sample_rate=44100:duration=3[l];' +
      'sine=frequency=130.81:sample_rate=44100:duration=3[r];' +
      '[l][r]join=inputs=2:channel_layout=stereo[out0]',
    '-c:a',
    'pcm_s16le',
  );
  const res = await render([
    '--in',
    input,
    '--out',
    output,
    '--out-format',
    's16le:48000:2',
    '--eq',
    'b9=2',
    '--volume',
    '0.7',
  ]);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /rendered 3\.00 s of s16le:44100:2:stereo to s16le:48000:2:stereo/);
  const info = probe(output);
  assert.equal(info.codec_name, 'pcm_s16le');
  assert.equal(info.sample_rate, '48000');
  assert.equal(info.channels, '2');
  assert.equal(Number(info.duration), 3);
  const [left, right] = [wavChannel(output, 0), wavChannel(output, 1)];
  const [inLeft, inRight] = [wavChannel(input, 0), wavChannel(input, 1)];
  const gain = (out: Float64Array, inp: Float64Array, freq: number) =>
    db(amplitude(out, freq, 48000, 4800) / amplitude(inp, freq, 44100, 4410));
  const volume = gain(right, inRight, 130.81);
  const eq = gain(left, inLeft, 1046.5) - volume;
  assert.ok(Math.abs(volume - db(0.7)) < 0.05, `volume ${volume.toFixed(3)} dB`);
  assert.ok(Math.abs(eq - db(2)) < 0.05, `EQ ${eq.toFixed(3)} dB at the band centre`);
  // Time-aligned: the resampler's latency is removed, so the sine starts at sample 0 in phase.
  const rising = (x: Float64Array) => x.findIndex((v, i) => i > 0 && x[i - 1]! <= 0 && v > 0.05);
  assert.ok(Math.abs(rising(left) / 48000 - rising(inLeft) / 44100) < 0.0002);
});

test('a 5.1 WAV down-mixes to stereo with the centre at -3 dB in both sides', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'surround.wav');
  const output = join(dir, 'stereo.wav');
  // Only the centre channel carries a 500 Hz tone.
  ffmpeg(
    input,
    'sine=frequency=500:sample_rate=48000:duration=2',
    '-af',
    'pan=5.1|FC=c0',
    '-c:a',
    'pcm_s16le',
  );
  assert.equal(probe(input).channel_layout, '5.1');
  const res = await render(['--in', input, '--out', output, '--layout', 'stereo']);
  assert.equal(res.status, 0, res.stderr);
  const info = probe(output);
  assert.equal(info.channels, '2');
  for (const c of [0, 1]) {
    const level = db(amplitude(wavChannel(output, c), 500, 48000) / 0.125);
    assert.ok(Math.abs(level + 3.01) < 0.05, `channel ${c}: ${level.toFixed(3)} dB`);
  }
});

test('raw L16 in, raw 24-bit 5.1 out: sizes, byte order and the duplicating up-mix', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.l16');
  const output = join(dir, 'out.raw');
  const frames = 4800;
  const raw = Buffer.alloc(frames * 4);
  for (let n = 0; n < frames; n++) {
    raw.writeInt16BE(1000, 4 * n); // left
    raw.writeInt16BE(-3000, 4 * n + 2); // right
  }
  writeFileSync(input, raw);
  const res = await render([
    '--in',
    input,
    '--in-format',
    'l16:48000:2',
    '--out',
    output,
    '--out-format',
    's24le:48000:6',
    '--layout',
    '5.1',
    '--quiet',
  ]);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stderr, '', '--quiet prints nothing');
  const out = readFileSync(output);
  assert.equal(out.length, frames * 6 * 3);
  const sample = (n: number, c: number) => out.readIntLE(3 * (6 * n + c), 3) / 256;
  // FL, FR, FC = (L + R) / 2, LFE silent, BL = FL, BR = FR.
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((c) => sample(100, c)),
    [1000, -3000, -1000, 0, 1000, -3000],
  );
});

test('resampled output is time-aligned with the input: an impulse lands where it was', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.raw');
  const output = join(dir, 'out.raw');
  const raw = Buffer.alloc(2 * 44100);
  raw.writeInt16LE(20000, 2 * 1000);
  writeFileSync(input, raw);
  const res = await render([
    '--in',
    input,
    '--in-format',
    's16le:44100:1',
    '--out',
    output,
    '--out-format',
    's16le:48000:1',
    '--no-dither',
  ]);
  assert.equal(res.status, 0, res.stderr);
  const out = readFileSync(output);
  assert.equal(out.length, 2 * 48000);
  let peak = 0;
  for (let i = 1; i < out.length / 2; i++) {
    if (Math.abs(out.readInt16LE(2 * i)) > Math.abs(out.readInt16LE(2 * peak))) peak = i;
  }
  // Frame 1000 at 44.1 kHz is 1088.4 at 48 kHz.
  assert.equal(peak, 1088);
});

test('neutral settings copy the samples bit for bit', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.raw');
  const output = join(dir, 'out.raw');
  const bytes = Buffer.alloc(6 * 10_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2_654_435_761) >>> 24;
  writeFileSync(input, bytes);
  const res = await render(['--in', input, '--in-format', 's24le:96000:2', '--out', output]);
  assert.equal(res.status, 0, res.stderr);
  assert.ok(readFileSync(output).equals(bytes));
});

test('--delay lengthens the output by the delay and starts with silence', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.wav');
  const output = join(dir, 'out.wav');
  ffmpeg(input, 'sine=frequency=440:sample_rate=48000:duration=1', '-c:a', 'pcm_s16le');
  const res = await render(['--in', input, '--out', output, '--delay', '100']);
  assert.equal(res.status, 0, res.stderr);
  const mono = wavChannel(output, 0);
  assert.equal(mono.length, 48000 + 4800);
  assert.ok(mono.subarray(0, 4790).every((v) => v === 0));
  assert.ok(amplitude(mono, 440, 48000, 6000) > 0.12);
});

test('--eq-preset reads equalizers.yaml through the daemon config code', async (t) => {
  const dir = tempDir(t);
  const input = join(dir, 'in.wav');
  const output = join(dir, 'out.wav');
  const presets = join(dir, 'equalizers.yaml');
  ffmpeg(input, 'sine=frequency=1046.5:sample_rate=48000:duration=1', '-c:a', 'pcm_s16le');
  writeFileSync(presets, 'equalizers:\n  - name: Cut 1k\n    b9: 0.5\n');
  const env = { EQUALIZER_CONFIG_PATH: presets };
  const res = await render(['--in', input, '--out', output, '--eq-preset', 'Cut 1k'], env);
  assert.equal(res.status, 0, res.stderr);
  const level = db(amplitude(wavChannel(output, 0), 1046.5, 48000, 4800) / 0.125);
  assert.ok(Math.abs(level + 6.02) < 0.1, `${level.toFixed(3)} dB`);
  const missing = await render(['--in', input, '--out', output, '--eq-preset', 'Nope'], env);
  assert.equal(missing.status, 2);
  assert.match(
    missing.stderr,
    /no equalizer preset named 'Nope' in .*equalizers\.yaml \(presets: 'Cut 1k'\)/,
  );
  writeFileSync(presets, 'equalizers:\n  - name: Bad\n    b9: 7\n');
  const invalid = await render(['--in', input, '--out', output, '--eq-preset', 'Bad'], env);
  assert.equal(invalid.status, 2);
  assert.match(invalid.stderr, /equalizers\.yaml is not a valid Tributary configuration[\s\S]*b9/);
  // Without a file the built-in presets apply, as in the daemon.
  const builtIn = await render(['--in', input, '--out', output, '--eq-preset', 'Bass Boost'], {
    EQUALIZER_CONFIG_PATH: join(dir, 'absent.yaml'),
  });
  assert.equal(builtIn.status, 0, builtIn.stderr);
});

test('bad arguments are refused with messages that name the flag', () => {
  const base = ['--in', 'in.raw', '--in-format', 's16le:48000:2', '--out', 'out.wav'];
  const refused = (extra: string[], message: RegExp, args = [...base, ...extra]) =>
    assert.throws(() => {
      const parsed = parseRenderArgs(args);
      if (parsed !== 'help') resolveFormats(parsed, null, parsed.output.endsWith('.wav'));
    }, message);
  refused([], /--in FILE is required/, ['--out', 'x.wav']);
  refused([], /--in-format is required for raw input/, ['--in', 'in.raw', '--out', 'x.wav']);
  refused([], /--in-format must look like FORMAT:RATE:CHANNELS/, [
    '--in',
    'a',
    '--in-format',
    's16le:48000',
    '--out',
    'b',
  ]);
  refused(['--volume', '2'], /--volume must be a number from 0 to 1, got '2'/);
  refused(['--delay=-5'], /--delay must be a number from 0 to 5000/);
  refused(['--eq', 'b19=1'], /--eq: 'b19=1' is not bN=GAIN/);
  refused(['--eq', 'b2=3'], /--eq b2 must be a number from 0 to 2/);
  refused(['--eq', '1,1,1'], /exactly 18 gains, got 3/);
  refused(['--eq', 'b1=1', '--eq-preset', 'x'], /either --eq or --eq-preset/);
  refused(['--layout', '9.1'], /--layout '9\.1' is not one of/);
  refused(['--out-format', 's16be:48000:2'], /WAV files hold little-endian samples; use s16le/);
  refused(
    ['--out-format', 's16le:48000:2', '--layout', '5.1'],
    /--layout 5\.1 has 6 channels but --out-format says 2/,
  );
  refused(['extra'], /unexpected argument 'extra'/);
  assert.deepEqual(
    parseEq('b1=1.5, B18=0.25').filter((g) => g !== 1),
    [1.5, 0.25],
  );
});

test('bad formats and files fail with clear messages and exit codes', async (t) => {
  const dir = tempDir(t);
  const raw = join(dir, 'in.raw');
  const out = join(dir, 'out.wav');
  writeFileSync(raw, Buffer.alloc(400));
  const float = join(dir, 'float.wav');
  ffmpeg(float, 'sine=sample_rate=48000:duration=0.1', '-c:a', 'pcm_f32le');
  const cases: [string[], RegExp, number][] = [
    [['--in', raw, '--out', out], /--in-format is required for raw input/, 2],
    [
      ['--in', raw, '--in-format', 'u8:48000:2', '--out', out],
      /input: unknown sample format 'u8'/,
      2,
    ],
    [['--in', join(dir, 'missing.wav'), '--out', out], /--in: cannot open .*missing\.wav/, 2],
    [['--in', float, '--out', out], /only integer PCM WAV files can be rendered/, 2],
  ];
  for (const [args, message, status] of cases) {
    const res = await render(args);
    assert.equal(res.status, status, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, message, args.join(' '));
  }
});

test('the progress bar is drawn on a terminal only', async (t) => {
  assert.equal(
    progressLine({ done: 30, total: 60, elapsed: 0.1 }),
    `[${'#'.repeat(15)}${'.'.repeat(15)}]  50%  30.0 / 60.0 s  300x realtime`,
  );
  const dir = tempDir(t);
  const input = join(dir, 'in.wav');
  const output = join(dir, 'out.wav');
  ffmpeg(input, 'sine=sample_rate=48000:duration=20', '-ac', '2', '-c:a', 'pcm_s16le');
  const piped = spawnRender(['--in', input, '--out', output, '--out-format', 's16le:44100:2']);
  assert.doesNotMatch(piped.stderr, /\[#+/);
  // `script` gives the command a pseudo-terminal.
  const command = [
    process.execPath,
    '--import',
    'tsx',
    cli,
    'render',
    '--in',
    input,
    '--out',
    output,
    '--out-format',
    's16le:44100:2',
  ]
    .map((a) => `'${a}'`)
    .join(' ');
  const tty = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8' });
  assert.equal(tty.status, 0, tty.stdout);
  assert.match(tty.stdout, /\[#{30}\] 100% {2}20\.0 \/ 20\.0 s {2}\d+x realtime/);
  assert.ok(statSync(output).size > 0);
});
