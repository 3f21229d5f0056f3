// WAV (RIFF/WAVE) headers for `tributary render`: reading the PCM formats Tributary processes
// (16/24/32-bit integer, plain or WAVE_FORMAT_EXTENSIBLE with a channel mask) and writing them.

export class RenderError extends Error {
  override name = 'RenderError';
}

/** What a WAV file's header says about its samples. */
export interface WavInfo {
  /** s16le, s24le or s32le. */
  sampleFormat: string;
  rate: number;
  channels: number;
  /** dwChannelMask of WAVE_FORMAT_EXTENSIBLE, or null for plain PCM (or a mask of 0). */
  mask: number | null;
  /** Where the sample data starts and how long it is (clamped to the file). */
  dataOffset: number;
  dataBytes: number;
}

const PCM = 1;
const EXTENSIBLE = 0xfffe;
// KSDATAFORMAT_SUBTYPE_PCM: 00000001-0000-0010-8000-00aa00389b71
const PCM_GUID = Buffer.from('0100000000001000800000aa00389b71', 'hex');

/** True when `head` starts like a RIFF/WAVE file. */
export function isWav(head: Buffer): boolean {
  return (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'WAVE'
  );
}

/** Reads the fmt and data chunks from the start of a WAV file (`head`: its first bytes). */
export function parseWav(head: Buffer, fileSize: number, name: string): WavInfo {
  if (!isWav(head)) throw new RenderError(`${name} is not a RIFF/WAVE file`);
  let pos = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | null = null;
  while (pos + 8 <= head.length) {
    const id = head.toString('latin1', pos, pos + 4);
    const size = head.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      if (body + 16 > head.length) break;
      fmt = parseFmt(head.subarray(body, body + size), name);
    } else if (id === 'data') {
      if (!fmt) throw new RenderError(`${name}: the data chunk comes before the fmt chunk`);
      // Streamed files leave the size at 0 or 0xFFFFFFFF: the data then runs to the end.
      const available = fileSize - body;
      const dataBytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      return { ...fmt, dataOffset: body, dataBytes };
    }
    pos = body + size + (size % 2);
  }
  throw new RenderError(`${name}: no fmt and data chunks in the first ${head.length} bytes`);
}

function parseFmt(fmt: Buffer, name: string): Omit<WavInfo, 'dataOffset' | 'dataBytes'> {
  const tag = fmt.readUInt16LE(0);
  const channels = fmt.readUInt16LE(2);
  const rate = fmt.readUInt32LE(4);
  const bits = fmt.readUInt16LE(14);
  let mask: number | null = null;
  if (tag === EXTENSIBLE) {
    if (fmt.length < 40 || !fmt.subarray(24, 40).equals(PCM_GUID)) {
      throw new RenderError(
        `${name}: only integer PCM WAV files can be rendered (this one is WAVE_FORMAT_EXTENSIBLE with another sub-format, e.g. float)`,
      );
    }
    mask = fmt.readUInt32LE(20) || null;
  } else if (tag !== PCM) {
    throw new RenderError(
      `${name}: only integer PCM WAV files can be rendered (format tag 0x${tag.toString(16)}${tag === 3 ? ', IEEE float' : ''})`,
    );
  }
  if (![16, 24, 32].includes(bits)) {
    throw new RenderError(`${name}: ${bits}-bit samples are not supported (16, 24 or 32)`);
  }
  return { sampleFormat: `s${bits}le`, rate, channels, mask };
}

/** A canonical header for `dataBytes` of little-endian PCM: plain PCM for 16-bit mono/stereo
 * without a mask, WAVE_FORMAT_EXTENSIBLE otherwise (as Microsoft requires for >2 channels or
 * >16 bits). Sizes above 4 GiB are written as 0xFFFFFFFF. */
export function wavHeader(
  bits: number,
  rate: number,
  channels: number,
  mask: number | null,
  dataBytes: number,
): Buffer {
  const extensible = channels > 2 || bits > 16 || (mask !== null && mask !== defaultMask(channels));
  const fmtSize = extensible ? 40 : 16;
  const header = Buffer.alloc(12 + 8 + fmtSize + 8);
  const riffSize = header.length - 8 + dataBytes;
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(Math.min(riffSize, 0xffffffff), 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(fmtSize, 16);
  const blockAlign = (channels * bits) / 8;
  header.writeUInt16LE(extensible ? EXTENSIBLE : PCM, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bits, 34);
  if (extensible) {
    header.writeUInt16LE(22, 36);
    header.writeUInt16LE(bits, 38);
    header.writeUInt32LE(mask ?? defaultMask(channels), 40);
    PCM_GUID.copy(header, 44);
  }
  const data = 20 + fmtSize;
  header.write('data', data, 'latin1');
  header.writeUInt32LE(Math.min(dataBytes, 0xffffffff), data + 4);
  return header;
}

/** The mask Windows assumes for a bare channel count (the DSP core's default layouts). */
export function defaultMask(channels: number): number {
  return [0, 0x4, 0x3, 0x7, 0x33, 0x37, 0x3f, 0x13f, 0x63f][channels] ?? 0;
}
