// MD5 (RFC 1321). Web Crypto has no MD5, and the ESP loaders verify flash contents with it
// (SPI_FLASH_MD5), so the flasher hashes each image before writing and compares.

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
// K[i] = floor(|sin(i + 1)| * 2^32), as RFC 1321 defines the table.
const K = Uint32Array.from({ length: 64 }, (_, i) =>
  Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32),
);

export class Md5 {
  private readonly state = Uint32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476);
  private readonly block = new Uint8Array(64);
  private readonly words = new Uint32Array(16);
  private blockLength = 0;
  private totalLength = 0;

  update(data: Uint8Array): this {
    let i = 0;
    this.totalLength += data.length;
    if (this.blockLength > 0) {
      const take = Math.min(64 - this.blockLength, data.length);
      this.block.set(data.subarray(0, take), this.blockLength);
      this.blockLength += take;
      i = take;
      if (this.blockLength < 64) return this;
      this.compress(this.block, 0);
      this.blockLength = 0;
    }
    for (; i + 64 <= data.length; i += 64) this.compress(data, i);
    if (i < data.length) {
      this.block.set(data.subarray(i), 0);
      this.blockLength = data.length - i;
    }
    return this;
  }

  digest(): Uint8Array {
    const bitLength = this.totalLength * 8;
    const padLength = this.blockLength < 56 ? 56 - this.blockLength : 120 - this.blockLength;
    const tail = new Uint8Array(padLength + 8);
    tail[0] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(padLength, bitLength >>> 0, true);
    view.setUint32(padLength + 4, Math.floor(bitLength / 2 ** 32), true);
    this.update(tail);
    const out = new Uint8Array(16);
    const outView = new DataView(out.buffer);
    for (let j = 0; j < 4; j++) outView.setUint32(j * 4, this.state[j]!, true);
    return out;
  }

  private compress(data: Uint8Array, offset: number): void {
    const w = this.words;
    for (let j = 0; j < 16; j++) {
      const p = offset + j * 4;
      w[j] = (data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | (data[p + 3]! << 24)) >>> 0;
    }
    let a = this.state[0]!;
    let b = this.state[1]!;
    let c = this.state[2]!;
    let d = this.state[3]!;
    for (let j = 0; j < 64; j++) {
      let f: number;
      let g: number;
      if (j < 16) {
        f = (b & c) | (~b & d);
        g = j;
      } else if (j < 32) {
        f = (d & b) | (~d & c);
        g = (5 * j + 1) % 16;
      } else if (j < 48) {
        f = b ^ c ^ d;
        g = (3 * j + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * j) % 16;
      }
      const shift = SHIFTS[(j >> 4) * 4 + (j % 4)]!;
      const sum = (a + f + K[j]! + w[g]!) | 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
    }
    this.state[0] = (this.state[0]! + a) | 0;
    this.state[1] = (this.state[1]! + b) | 0;
    this.state[2] = (this.state[2]! + c) | 0;
    this.state[3] = (this.state[3]! + d) | 0;
  }
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Lower-case hex MD5 of `data`, the form esptool-js compares with the device's answer. */
export function md5Hex(data: Uint8Array): string {
  return toHex(new Md5().update(data).digest());
}
