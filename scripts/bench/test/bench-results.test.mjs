// The one shape every bench writes (scripts/bench/bench-results.mjs): what a result records, how a
// missed target decides the exit status, and `npm run bench`'s own options.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordDecode } from '../bench-decode.mjs';
import { recordRun } from '../bench-fidelity.mjs';
import { checkShape, formatFigure, SCHEMA, startBench } from '../bench-results.mjs';

const moduleUrl = new URL('../bench-results.mjs', import.meta.url).href;
const benchScript = fileURLToPath(new URL('../bench.mjs', import.meta.url));

/** Runs a bench in a child process that records figure `a` = 5 ms against `target`; returns its
 * exit status and the result it wrote. */
function benchChild(t, target, flags = []) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-results-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'x.json');
  const code = `
    import { startBench } from ${JSON.stringify(moduleUrl)};
    const b = startBench('x', { what: 'a test', out: ${JSON.stringify(out)}, argv: process.argv.slice(1) });
    b.figure('a', 5, 'ms', { digits: 2 });
    b.target('a', ...${JSON.stringify(target)});
    b.finish();`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, '--', ...flags], {
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, result: JSON.parse(readFileSync(out, 'utf8')) };
}

test('a result records the machine, the load before and after, the commit, figures and targets', (t) => {
  const { status, result } = benchChild(t, ['<=', 10, { stated: 'here' }]);
  assert.equal(status, 0);
  assert.deepEqual(checkShape(result), []);
  assert.equal(result.schema, SCHEMA);
  assert.equal(result.bench, 'x');
  assert.ok(Date.now() - Date.parse(result.date) < 60_000, result.date);
  assert.ok(result.machine.cores >= 1 && result.machine.ram_bytes > 0);
  assert.match(result.machine.node, /^v\d+/);
  assert.equal(result.load.before.length, 3);
  assert.equal(result.load.after.length, 3);
  assert.equal(result.load.stress_ng, false);
  assert.match(result.commit?.id ?? 'not a checkout', /^[0-9a-f]{40}$|not a checkout/);
  assert.deepEqual(result.figures.a, { value: 5, unit: 'ms', digits: 2 });
  assert.deepEqual(result.targets, [
    { figure: 'a', op: '<=', limit: 10, value: 5, met: true, gating: true, stated: 'here' },
  ]);
  assert.equal(result.met, true);
  assert.equal(formatFigure(result.figures.a), '5.00');
});

test('a missed target fails the run (exit 1) unless --report-only', (t) => {
  const missed = benchChild(t, ['<', 5, { stated: 'here' }]);
  assert.equal(missed.status, 1);
  assert.equal(missed.result.met, false);
  assert.match(missed.stdout, /TARGET MISSED: a 5 < 5 \(here\)/);
  const reported = benchChild(t, ['<', 5, { stated: 'here' }], ['--report-only']);
  assert.equal(reported.status, 0);
  assert.equal(reported.result.met, false);
  assert.match(reported.stdout, /--report-only: a target was missed, exiting 0 anyway/);
});

test('an open goal missed is recorded with its reason and does not fail the run', (t) => {
  const goal = benchChild(t, ['>=', 6, { stated: 'here', gating: false, why: 'open goal' }]);
  assert.equal(goal.status, 0);
  assert.equal(goal.result.met, true);
  assert.deepEqual(goal.result.targets[0], {
    figure: 'a',
    op: '>=',
    limit: 6,
    value: 5,
    met: false,
    gating: false,
    stated: 'here',
    why: 'open goal',
  });
});

test('figures need a plain id, once; a target needs its figure, and a reason not to gate', () => {
  const b = startBench('x', { what: 'a test', argv: [] });
  assert.throws(() => b.figure('Has Spaces', 1, 'ms'), /lower case/);
  b.figure('a.b', Number.NaN, 'ms');
  assert.equal(b.result.figures['a.b'].value, null);
  assert.throws(() => b.figure('a.b', 1, 'ms'), /recorded twice/);
  assert.throws(() => b.target('c', '<', 1, { stated: 's' }), /not recorded/);
  assert.throws(() => b.target('a.b', '<', 1, { stated: 's', gating: false }), /say why/);
  assert.equal(b.target('a.b', '<', 1, { stated: 's' }), false, 'a figure not measured misses');
});

test('checkShape names what a result lacks', () => {
  const problems = checkShape({ schema: SCHEMA, bench: 'x', figures: { f: { value: 'x' } } });
  for (const want of [
    /what is not a string/,
    /machine.cpu/,
    /load.before/,
    /figure f has no value/,
  ]) {
    assert.ok(
      problems.some((p) => want.test(p)),
      `${want} in ${problems.join('; ')}`,
    );
  }
});

test('a fidelity run becomes figures named sender.load.receiver.figure', () => {
  const b = startBench('fidelity', { what: 'a test', argv: [] });
  const heard = {
    pitch_ppm_p50: 1.5,
    pitch_ppm_p99: 9,
    windows: 100,
    gaps: 0,
    gap_ms: 0,
    heard_s: 60,
  };
  const trib = {
    ...heard,
    ...{ counted_ms: 0, queued_ms: 31.8, correction_ppm_p50: 1, correction_ppm_p99: 13.1 },
    ...{ late: 0, lost: 0, skips: 0, skipped_ms: 0, repeats: 0, repeated_ms: 0 },
  };
  const run = { sender: 'ffmpeg -re', load: true, seconds: 60, sender_clock_ppm: 2.5 };
  recordRun(b, { ...run, tributary: trib, gstreamer: { ...heard, pitch_ppm_p99: 0.4 } });
  const f = b.result.figures;
  assert.equal(f['ffmpeg_48k.stress.tributary.pitch_ppm_p99'].value, 9);
  assert.equal(f['ffmpeg_48k.stress.tributary.pitch_ppm_p99'].reference.value, 0.4);
  assert.equal(f['ffmpeg_48k.stress.tributary.queued_ms'].value, 31.8);
  assert.equal(f['ffmpeg_48k.stress.gstreamer.gaps'].digits, 0);
  assert.throws(() => recordRun(b, { ...run, sender: 'vlc' }), /does not know: vlc/);
});

test('a decode run becomes x realtime per format and side, whole and less a 1 s file, and ratios', () => {
  const b = startBench('decode', { what: 'a test', argv: [] });
  const mp3 = { format: 'mp3', ours_cpu_s: 0.1, ffmpeg_cpu_s: 0.25 };
  recordDecode(b, {
    seconds: 120,
    formats: [{ ...mp3, ours_1s_cpu_s: 0.002, ffmpeg_1s_cpu_s: 0.1 }],
  });
  const f = b.result.figures;
  assert.equal(f.seconds.value, 120);
  assert.equal(f['mp3.ours.x_realtime'].value, 1200);
  assert.equal(f['mp3.ffmpeg.x_realtime'].value, 480);
  assert.equal(f['mp3.ratio'].value, 2.5);
  assert.equal(f['mp3.ratio'].reference.value, 480);
  assert.equal(formatFigure(f['mp3.ours.net_x_realtime']), '1214');
  assert.equal(formatFigure(f['mp3.ffmpeg.net_x_realtime']), '793');
  assert.equal(formatFigure(f['mp3.net_ratio']), '1.53');
  // A 1 s file that took no less CPU than the long one leaves nothing to divide: not measured.
  const zero = startBench('decode', { what: 'a test', argv: [] });
  recordDecode(zero, {
    seconds: 2,
    formats: [{ ...mp3, ours_1s_cpu_s: 0.1, ffmpeg_1s_cpu_s: 0.1 }],
  });
  assert.equal(zero.result.figures['mp3.ours.net_x_realtime'].value, null);
  assert.equal(zero.result.figures['mp3.net_ratio'].value, null);
  assert.throws(
    () =>
      recordDecode(startBench('decode', { what: 'a test', argv: [] }), {
        seconds: 1,
        formats: [{ ...mp3, format: 'aiff' }],
      }),
    /does not know: aiff/,
  );
});

test('npm run bench refuses an option it does not know, and a name no bench has', () => {
  const flag = spawnSync(process.execPath, [benchScript, 'solver', '--jsn'], { encoding: 'utf8' });
  assert.equal(flag.status, 2);
  assert.match(flag.stderr, /unknown option --jsn/);
  const name = spawnSync(process.execPath, [benchScript, 'nosuch', '--json'], { encoding: 'utf8' });
  assert.equal(name.status, 2);
  assert.match(name.stderr, /no benchmark matches nosuch/);
});
