#!/usr/bin/env node
// The URL-playback decoder (issue 29): decode speed per format (MP3, FLAC, Ogg Vorbis, Ogg
// Opus, WAV, M4A) against `ffmpeg -threads 1 -i FILE -f f32le -` on the same files in the same
// run, by CPU time; the criterion bench in native/decode/benches/decode.rs prints both and the
// ratio, then hands this script the CPU times as a JSON line. BENCH_SECONDS=N changes the files'
// length (default 120; under ~30 s the columns less a 1 s file are noise: ffmpeg's start varies
// by more than its decoding takes). No target is stated. `--json` writes
// bench/results/decode.json, whose figures are named FORMAT.ours|ffmpeg.x_realtime (whole file)
// and .net_x_realtime (less a 1 s file's time), FORMAT.ratio and FORMAT.net_ratio (ours / ffmpeg
// speed), e.g. mp3.net_ratio; native/decode/README.md writes them out.
import { fileURLToPath } from 'node:url';
import { runEchoing, startBench } from './bench-results.mjs';

/** benches/decode.rs's formats (tests/common/mod.rs FORMATS, by extension), as the docs name them. */
export const FORMAT_LABELS = {
  mp3: 'MP3 (LAME 192 kbit/s)',
  flac: 'FLAC 16-bit',
  ogg: 'Ogg Vorbis (q6)',
  opus: 'Ogg Opus (160 kbit/s)',
  wav: 'WAV s16le',
  m4a: 'M4A AAC (192 kbit/s)',
};

const FFMPEG = 'ffmpeg -threads 1 -i FILE -f f32le - (CPU time of the process)';

/**
 * Records decode.rs's JSON line ({ seconds, formats: [{ format, ours_cpu_s, ffmpeg_cpu_s,
 * ours_1s_cpu_s, ffmpeg_1s_cpu_s }] }) as figures: x realtime on one core for each side, whole
 * and less the 1 s file's CPU time (over seconds - 1 s), and the speed ratios.
 */
export function recordDecode(bench, out) {
  const n = out.seconds;
  bench.figure('seconds', n, 's', {
    digits: 0,
    label: 'length of each file (pink noise, 44.1 kHz stereo)',
  });
  for (const f of out.formats) {
    const label = FORMAT_LABELS[f.format];
    if (!label) throw new Error(`decode.rs ran a format this script does not know: ${f.format}`);
    const ourNet = Math.max(0, f.ours_cpu_s - f.ours_1s_cpu_s);
    const theirNet = Math.max(0, f.ffmpeg_cpu_s - f.ffmpeg_1s_cpu_s);
    const sides = [
      ['x_realtime', n, f.ours_cpu_s, f.ffmpeg_cpu_s, 'whole file'],
      ['net_x_realtime', n - 1, ourNet, theirNet, "less a 1 s file's CPU time"],
    ];
    for (const [id, span, ours, theirs, how] of sides) {
      const oursX = bench.figure(`${f.format}.ours.${id}`, span / ours, 'x realtime', {
        digits: 0,
        label: `${label}, ${how}: tributary-decode (symphonia; libopus for Opus)`,
      });
      const theirsX = bench.figure(`${f.format}.ffmpeg.${id}`, span / theirs, 'x realtime', {
        digits: 0,
        label: `${label}, ${how}: ffmpeg`,
      });
      const ratio = oursX !== null && theirsX !== null ? oursX / theirsX : null;
      bench.figure(`${f.format}.${id === 'x_realtime' ? 'ratio' : 'net_ratio'}`, ratio, 'ratio', {
        digits: 2,
        label: `${label}, ${how}: decode speed, ours / ffmpeg`,
        reference: {
          tool: FFMPEG,
          value: theirsX,
          ratio,
          ratio_is: 'ffmpeg CPU s / ours (decode speed ours / ffmpeg)',
        },
      });
    }
  }
}

async function main() {
  const bench = startBench('decode', {
    what: 'URL-playback decoder (tributary-decode) per format against ffmpeg on the same files, by CPU time on one core',
  });
  const { status, results } = await runEchoing('cargo', [
    ...['bench', '-p', 'tributary-decode', '--bench', 'decode', '--'],
    ...['--warm-up-time', '1', '--measurement-time', '3', '--noplot'],
  ]);
  const out = results.at(-1);
  if (status !== 0 || !out) {
    console.error(`cargo bench --bench decode failed (${status})`);
    process.exit(status || 1);
  }
  recordDecode(bench, out);
  bench.finish();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
