// Setting the SPI flash mode, frequency and size in a second-stage bootloader's image header, as
// `esptool write_flash --flash_mode dio --flash_freq 80m --flash_size 4MB` does. When the image
// carries an appended SHA-256 it is recomputed, or the ROM would report a digest mismatch.
// (esptool-js 0.7 rewrites the header but looks for the hash flag as ASCII '1' and so leaves a
// stale digest; the flasher does it here and hands esptool-js the finished bytes.)

import type { FlashFreq, FlashMode, FlashSize } from './manifest';

const IMAGE_MAGIC = 0xe9;
const MODES: Record<FlashMode, number> = { qio: 0, qout: 1, dio: 2, dout: 3 };
const FREQS: Record<FlashFreq, number> = { '40m': 0x0, '26m': 0x1, '20m': 0x2, '80m': 0xf };
const SIZES: Record<FlashSize, number> = {
  '1MB': 0x00,
  '2MB': 0x10,
  '4MB': 0x20,
  '8MB': 0x30,
  '16MB': 0x40,
};

export const FLASH_SIZE_BYTES: Record<FlashSize, number> = {
  '1MB': 0x100000,
  '2MB': 0x200000,
  '4MB': 0x400000,
  '8MB': 0x800000,
  '16MB': 0x1000000,
};

/** Length of the image up to and including its checksum byte, or null if it does not parse. */
export function imageDataLength(image: Uint8Array): number | null {
  if (image.length < 24 || image[0] !== IMAGE_MAGIC) return null;
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  let at = 24;
  for (let i = 0; i < image[1]!; i++) {
    if (at + 8 > image.length) return null;
    at += 8 + view.getUint32(at + 4, true);
  }
  const end = Math.ceil((at + 1) / 16) * 16;
  return end <= image.length ? end : null;
}

/**
 * Returns a copy of `image` with the given flash settings in its header (bytes 2 and 3) and, when
 * the image has an appended SHA-256 (extended header byte 15 = 1), the digest recomputed.
 * Anything that is not an ESP image is returned unchanged.
 */
export async function setFlashParams(
  image: Uint8Array,
  mode: FlashMode,
  freq: FlashFreq,
  size: FlashSize,
): Promise<Uint8Array> {
  const dataLength = imageDataLength(image);
  if (dataLength === null) return image;
  const out = image.slice();
  out[2] = MODES[mode];
  out[3] = SIZES[size] | FREQS[freq];
  const hashAppended = out[23] === 1 && dataLength + 32 <= out.length;
  if (hashAppended && (out[2] !== image[2] || out[3] !== image[3])) {
    const digest = await crypto.subtle.digest('SHA-256', out.slice(0, dataLength));
    out.set(new Uint8Array(digest), dataLength);
  }
  return out;
}
