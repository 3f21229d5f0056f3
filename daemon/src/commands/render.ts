// `tributary render`: runs a path of the audio engine offline over a raw or WAV file: the same
// code, in the same order, as a sink with the same settings gets from the engine.
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { extname } from 'node:path';
import { type FormatInfo, PathPreview, parseFormat } from '@tributary/native';
import {
  EQ_BAND_KEYS,
  type Format,
  formatText,
  parseRenderArgs,
  type RenderArgs,
  resolveFormats,
  usage,
} from './render-args.js';
import { ProgressBar } from './render-progress.js';
import { isWav, parseWav, RenderError, type WavInfo, wavHeader } from './render-wav.js';
import { type CommandIO, processIO } from './types.js';

const READ_BYTES = 1 << 22;

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  let args: RenderArgs;
  try {
    const parsed = parseRenderArgs(argv);
    if (parsed === 'help') {
      io.out(usage);
      return 0;
    }
    args = parsed;
  } catch (err) {
    io.err(`tributary render: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  try {
    await render(args, io);
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const usageError =
      err instanceof RenderError || e.name === 'ConfigFileError' || e.code === 'InvalidArg';
    io.err(`tributary render: ${e.message}\n`);
    return usageError ? 2 : 1;
  }
}

/** The 18 gains of a preset from equalizers.yaml (the daemon's file, or --equalizers). */
async function presetGains(name: string, file: string | undefined): Promise<number[]> {
  // The configuration code (YAML, schemas) loads only when a preset is asked for.
  const [{ parseEqualizersText }, { defaultEqualizers }, { readSettings }] = await Promise.all([
    import('../config/documents.js'),
    import('../config/defaults.js'),
    import('../settings/index.js'),
  ]);
  const path = file ?? readSettings().equalizerPath;
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || file !== undefined) {
      throw new RenderError(
        `cannot read equalizer presets from ${path}: ${(err as Error).message}`,
      );
    }
  }
  // Like the daemon: no equalizers.yaml yet means the built-in presets.
  const { equalizers } =
    text === null ? defaultEqualizers() : parseEqualizersText(text, path).value;
  const preset = equalizers.find((p) => p.name === name);
  if (!preset) {
    const names = equalizers.map((p) => `'${p.name}'`).join(', ');
    throw new RenderError(
      `no equalizer preset named '${name}' in ${path} (presets: ${names || 'none'})`,
    );
  }
  return EQ_BAND_KEYS.map((k) => (preset as unknown as Record<string, number>)[k] ?? 1);
}

async function render(args: RenderArgs, io: CommandIO): Promise<void> {
  // Synchronous I/O: a batch job gains nothing from the thread pool, and the hand-offs cost.
  let input: number;
  try {
    input = openSync(args.input, 'r');
  } catch (err) {
    throw new RenderError(`--in: cannot open ${args.input}: ${(err as Error).message}`);
  }
  try {
    const size = fstatSync(input).size;
    const head = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(input, head, 0, head.length, 0);
    const wav: WavInfo | null = isWav(head) ? parseWav(head, size, args.input) : null;
    const outputIsWav = extname(args.output).toLowerCase() === '.wav';
    const { input: inFmt, output: outFmt } = resolveFormats(args, wav, outputIsWav);
    const eq =
      args.eqPreset !== undefined ? await presetGains(args.eqPreset, args.equalizers) : args.eq;
    // The DSP core parses and validates both formats (its messages name the field).
    const [inInfo, outInfo] = [
      ['input', inFmt],
      ['output', outFmt],
    ].map(([what, f]) => {
      try {
        return parseFormat(formatText(f as Format));
      } catch (err) {
        throw new RenderError(`${what}: ${(err as Error).message.replace(/^format: /, '')}`);
      }
    }) as [FormatInfo, FormatInfo];
    const path = new PathPreview({
      input: inInfo.text,
      output: outInfo.text,
      volume: args.volume,
      eq,
      delayMs: args.delayMs,
      normalize: args.normalize,
      dither: args.dither,
    });
    const inFrameBytes = inInfo.frameBytes;
    const outFrameBytes = outInfo.frameBytes;
    const dataOffset = wav?.dataOffset ?? 0;
    const inFrames = Math.floor((wav?.dataBytes ?? size) / inFrameBytes);
    // Whole frames only: a partial frame at the end of the file is not audio.
    const dataBytes = inFrames * inFrameBytes;
    const delayFrames = Math.round(((args.delayMs ?? 0) * outFmt.rate) / 1000);
    // The output lines up with the input (the conversion is time-aligned; what it holds back is
    // flushed with silence at the end); a delay lengthens the output by itself.
    const wanted = Math.round((inFrames * outFmt.rate) / inFmt.rate) + delayFrames;
    let remaining = wanted * outFrameBytes;

    let output: number;
    try {
      output = openSync(args.output, 'w');
    } catch (err) {
      throw new RenderError(`--out: cannot create ${args.output}: ${(err as Error).message}`);
    }
    try {
      const { bits, mask } = outInfo;
      let position = 0;
      if (outputIsWav) {
        const header = wavHeader(bits, outFmt.rate, outFmt.channels, mask, remaining);
        writeSync(output, header, 0, header.length, 0);
        position = header.length;
      }
      const headerBytes = position;
      // The bar needs a real terminal: only when writing to the process's own stderr.
      const bar = new ProgressBar(process.stderr);
      const showBar = !args.quiet && io === processIO && bar.active;
      const started = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
      const total = inFrames / inFmt.rate;
      const readBuf = Buffer.alloc(READ_BYTES - (READ_BYTES % inFrameBytes));
      const outBuf = Buffer.alloc(path.maxOutputBytes(readBuf.length));
      const emit = (n: number) => {
        const len = Math.min(n, remaining);
        if (len <= 0) return;
        writeSync(output, outBuf, 0, len, position);
        position += len;
        remaining -= len;
      };
      let offset = 0;
      while (offset < dataBytes) {
        const want = Math.min(readBuf.length, dataBytes - offset);
        const bytesRead = readSync(input, readBuf, 0, want, dataOffset + offset);
        const whole = bytesRead - (bytesRead % inFrameBytes);
        if (whole === 0) break;
        offset += whole;
        emit(path.processInto(readBuf.subarray(0, whole), outBuf));
        if (showBar)
          bar.update({ done: offset / inFrameBytes / inFmt.rate, total, elapsed: elapsed() });
      }
      // Flush the conversion filter with silence until the output is complete.
      readBuf.fill(0);
      for (let guard = 0; remaining > 0 && guard < 10_000; guard++) {
        const frames = Math.ceil((remaining / outFrameBytes) * (inFmt.rate / outFmt.rate)) + 64;
        const bytes = Math.min(readBuf.length, frames * inFrameBytes);
        emit(path.processInto(readBuf.subarray(0, bytes), outBuf));
      }
      if (showBar) {
        bar.update({ done: total, total, elapsed: elapsed() }, true);
        bar.finish();
      }
      if (outputIsWav && position - headerBytes !== wanted * outFrameBytes) {
        const header = wavHeader(bits, outFmt.rate, outFmt.channels, mask, position - headerBytes);
        writeSync(output, header, 0, header.length, 0);
      }
      ftruncateSync(output, position);
      if (!args.quiet) {
        const secs = elapsed();
        io.err(
          `rendered ${total.toFixed(2)} s of ${path.inputFormat} to ${path.outputFormat} in ${secs.toFixed(2)} s (${Math.round(total / Math.max(secs, 1e-6))}x realtime): ${args.output}\n`,
        );
      }
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
}
