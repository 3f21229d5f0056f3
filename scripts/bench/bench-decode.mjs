#!/usr/bin/env node
// The URL-playback decoder (issue 29): decode speed per format (MP3, FLAC, Ogg Vorbis, Ogg
// Opus, WAV, M4A) against `ffmpeg -i FILE -f f32le -` on the same files in the same run, by CPU
// time; the criterion bench in native/decode/benches/decode.rs prints both and the ratio.
// BENCH_SECONDS=N changes the files' length (default 120; under ~30 s the columns less a 1 s
// file are noise: ffmpeg's start varies by more than its decoding takes).
import { sh } from './bench-native-common.mjs';

sh(
  'cargo',
  [
    ...['bench', '-p', 'tributary-decode', '--bench', 'decode', '--'],
    ...['--warm-up-time', '1', '--measurement-time', '3', '--noplot'],
  ],
  { stdio: 'inherit' },
);
