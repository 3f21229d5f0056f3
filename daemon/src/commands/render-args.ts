// Command-line parsing for `tributary render`: flags, the EQ notation and the formats.
import { parseArgs } from 'node:util';
import { EQ_BAND_COUNT, parseLayout } from '@tributary/native';
import { RenderError, type WavInfo } from './render-wav.js';

export const usage = `Usage: tributary render --in FILE [--in-format FMT] --out FILE [--out-format FMT]
                        [--volume V] [--eq b1=G,...,b18=G | --eq-preset NAME] [--delay MS]
                        [--layout LAYOUT] [--normalize] [--no-dither] [--equalizers FILE] [--quiet]

Runs a path of the audio engine over a file, to preview settings offline: the delay, the
conversion to the output rate, channel mapping, 18-band EQ, volume and normalisation, in the
order the engine plays them (what a sink's mixer gets; --no-dither for its exact samples).

  --in FILE          Input: a WAV file (format read from its header) or raw interleaved PCM
  --in-format FMT    Raw input format FORMAT:RATE:CHANNELS[:LAYOUT], e.g. s16le:44100:2
                     (FORMAT: s16le, s16be/l16, s24le, s24be/l24, s32le; rates 8000-384000;
                     LAYOUT: mono, stereo, quad, surround, 3.1, 4.0, 5.1, 5.1(side), 7.1 or 0x3F)
  --out FILE         Output: a .wav name writes WAV, anything else raw PCM
  --out-format FMT   Output format (default: the input's, with --layout applied)
  --volume V         0.0-1.0 (default 1)
  --eq GAINS         Band gains 0.0-2.0 (1.0 flat; 2.0 = +6 dB): b1=1.2,b9=0.8 or 18 values
  --eq-preset NAME   A preset from equalizers.yaml (EQUALIZER_CONFIG_PATH, or --equalizers FILE)
  --delay MS         0-5000 ms of delay
  --layout LAYOUT    Output channel layout (down- or up-mixed with the default matrix)
  --normalize        Loudness normalisation (RMS AGC)
  --no-dither        No TPDF dither when reducing bit depth
  --quiet            No progress bar or summary
`;

/** b1..b18. */
export const EQ_BAND_KEYS = Array.from({ length: EQ_BAND_COUNT }, (_, i) => `b${i + 1}`);

export interface RenderArgs {
  input: string;
  output: string;
  inFormat: string | undefined;
  outFormat: string | undefined;
  volume: number | undefined;
  eq: number[] | undefined;
  eqPreset: string | undefined;
  equalizers: string | undefined;
  delayMs: number | undefined;
  layout: string | undefined;
  normalize: boolean;
  dither: boolean;
  quiet: boolean;
}

/** Parsed command line; throws RenderError (a usage problem) with a message naming the flag. */
export function parseRenderArgs(argv: string[]): RenderArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      in: { type: 'string', short: 'i' },
      'in-format': { type: 'string' },
      out: { type: 'string', short: 'o' },
      'out-format': { type: 'string' },
      volume: { type: 'string' },
      eq: { type: 'string' },
      'eq-preset': { type: 'string' },
      equalizers: { type: 'string' },
      delay: { type: 'string' },
      layout: { type: 'string' },
      normalize: { type: 'boolean' },
      'no-dither': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) {
    throw new RenderError(`unexpected argument '${positionals[0]}' (files go after --in / --out)`);
  }
  if (!values.in) throw new RenderError('--in FILE is required');
  if (!values.out) throw new RenderError('--out FILE is required');
  if (values.eq !== undefined && values['eq-preset'] !== undefined) {
    throw new RenderError('use either --eq or --eq-preset, not both');
  }
  return {
    input: values.in,
    output: values.out,
    inFormat: values['in-format'],
    outFormat: values['out-format'],
    volume: values.volume === undefined ? undefined : number('--volume', values.volume, 0, 1),
    eq: values.eq === undefined ? undefined : parseEq(values.eq),
    eqPreset: values['eq-preset'],
    equalizers: values.equalizers,
    delayMs: values.delay === undefined ? undefined : number('--delay', values.delay, 0, 5000),
    layout: values.layout,
    normalize: values.normalize ?? false,
    dither: !(values['no-dither'] ?? false),
    quiet: values.quiet ?? false,
  };
}

function number(flag: string, text: string, min: number, max: number): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v < min || v > max) {
    throw new RenderError(`${flag} must be a number from ${min} to ${max}, got '${text}'`);
  }
  return v;
}

/** `b1=1.2,b9=0.8` (unnamed bands stay 1.0) or 18 comma-separated gains. */
export function parseEq(text: string): number[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const gains: number[] = Array(EQ_BAND_COUNT).fill(1);
  const named = parts.some((p) => p.includes('='));
  if (!named && parts.length !== EQ_BAND_COUNT) {
    throw new RenderError(
      `--eq takes b1=G,...,b18=G or exactly ${EQ_BAND_COUNT} gains, got ${parts.length} value(s)`,
    );
  }
  parts.forEach((part, i) => {
    const [key, value] = named ? part.split('=', 2) : [EQ_BAND_KEYS[i], part];
    const band = EQ_BAND_KEYS.indexOf(key?.trim().toLowerCase() ?? '');
    if (band < 0 || value === undefined) {
      throw new RenderError(`--eq: '${part}' is not bN=GAIN with N from 1 to ${EQ_BAND_COUNT}`);
    }
    gains[band] = number(`--eq ${EQ_BAND_KEYS[band]}`, value, 0, 2);
  });
  return gains;
}

/** Channels of a layout name or 0x mask, by the DSP core's rules (null if it is not one). */
export function layoutChannels(layout: string): number | null {
  try {
    return parseLayout(layout).channels;
  } catch {
    return null;
  }
}

export interface Format {
  sampleFormat: string;
  rate: number;
  channels: number;
  layout: string | undefined;
}

/** Splits FORMAT:RATE:CHANNELS[:LAYOUT]; the DSP core validates the values themselves. */
export function parseFormat(flag: string, text: string): Format {
  const parts = text.split(':');
  const [sampleFormat, rate, channels, layout] = parts;
  const rateN = Number(rate);
  const channelsN = Number(channels);
  if (
    parts.length < 3 ||
    parts.length > 4 ||
    !sampleFormat ||
    !Number.isInteger(rateN) ||
    !Number.isInteger(channelsN)
  ) {
    throw new RenderError(
      `${flag} must look like FORMAT:RATE:CHANNELS[:LAYOUT] (e.g. s16le:48000:2), got '${text}'`,
    );
  }
  return { sampleFormat: sampleFormat.toLowerCase(), rate: rateN, channels: channelsN, layout };
}

export function formatText(f: Format): string {
  return `${f.sampleFormat}:${f.rate}:${f.channels}${f.layout ? `:${f.layout}` : ''}`;
}

/** Little-endian twin of a format (WAV stores little-endian samples). */
const LITTLE_ENDIAN: Record<string, string> = {
  s16be: 's16le',
  l16: 's16le',
  s24be: 's24le',
  l24: 's24le',
};

/** The input and output formats from the flags and (for WAV input) the file's header. */
export function resolveFormats(
  args: RenderArgs,
  wav: WavInfo | null,
  outputIsWav: boolean,
): { input: Format; output: Format } {
  let input: Format;
  if (wav) {
    const fromHeader: Format = {
      sampleFormat: wav.sampleFormat,
      rate: wav.rate,
      channels: wav.channels,
      layout: wav.mask === null ? undefined : `0x${wav.mask.toString(16)}`,
    };
    if (args.inFormat !== undefined) {
      const given = parseFormat('--in-format', args.inFormat);
      if (
        given.sampleFormat !== fromHeader.sampleFormat ||
        given.rate !== fromHeader.rate ||
        given.channels !== fromHeader.channels
      ) {
        throw new RenderError(
          `--in-format ${args.inFormat} disagrees with the WAV header of ${args.input} (${formatText({ ...fromHeader, layout: undefined })}); leave --in-format out for WAV files`,
        );
      }
      fromHeader.layout = given.layout ?? fromHeader.layout;
    }
    input = fromHeader;
  } else {
    if (args.inFormat === undefined) {
      throw new RenderError(
        `--in-format is required for raw input (${args.input} is not a WAV file)`,
      );
    }
    input = parseFormat('--in-format', args.inFormat);
  }
  let output: Format;
  if (args.outFormat !== undefined) {
    output = parseFormat('--out-format', args.outFormat);
    if (outputIsWav && LITTLE_ENDIAN[output.sampleFormat]) {
      throw new RenderError(
        `--out-format ${output.sampleFormat}: WAV files hold little-endian samples; use ${LITTLE_ENDIAN[output.sampleFormat]} or a raw output file`,
      );
    }
  } else {
    const sampleFormat =
      outputIsWav && LITTLE_ENDIAN[input.sampleFormat]
        ? (LITTLE_ENDIAN[input.sampleFormat] as string)
        : input.sampleFormat;
    output = { ...input, sampleFormat };
    if (args.layout !== undefined) output.layout = undefined;
  }
  if (args.layout !== undefined) {
    const n = layoutChannels(args.layout);
    if (n === null) {
      throw new RenderError(
        `--layout '${args.layout}' is not one of mono, stereo, quad, surround, 3.1, 4.0, 5.1, 5.1(side), 7.1 or a mask like 0x3F`,
      );
    }
    if (args.outFormat !== undefined && output.channels !== n) {
      throw new RenderError(
        `--layout ${args.layout} has ${n} channels but --out-format says ${output.channels}`,
      );
    }
    if (output.layout !== undefined && output.layout.toLowerCase() !== args.layout.toLowerCase()) {
      throw new RenderError(
        `--layout ${args.layout} disagrees with --out-format's layout ${output.layout}`,
      );
    }
    output.channels = n;
    output.layout = args.layout;
  }
  return { input, output };
}
