// SLIP framing as used by the ESP ROM and stub loaders: every packet starts and ends with 0xC0;
// inside a packet 0xC0 is sent as 0xDB 0xDC and 0xDB as 0xDB 0xDD.

export const SLIP_END = 0xc0;
export const SLIP_ESC = 0xdb;
export const SLIP_ESC_END = 0xdc;
export const SLIP_ESC_ESC = 0xdd;

export function slipEncode(packet: Uint8Array): Uint8Array {
  let escapes = 0;
  for (const byte of packet) {
    if (byte === SLIP_END || byte === SLIP_ESC) escapes++;
  }
  const out = new Uint8Array(packet.length + escapes + 2);
  let o = 0;
  out[o++] = SLIP_END;
  for (const byte of packet) {
    if (byte === SLIP_END) {
      out[o++] = SLIP_ESC;
      out[o++] = SLIP_ESC_END;
    } else if (byte === SLIP_ESC) {
      out[o++] = SLIP_ESC;
      out[o++] = SLIP_ESC_ESC;
    } else {
      out[o++] = byte;
    }
  }
  out[o] = SLIP_END;
  return out;
}

/**
 * Incremental SLIP decoder. Bytes outside a frame (boot messages, line noise) are ignored, as the
 * ROM does; a frame with an invalid escape is dropped whole.
 */
export class SlipDecoder {
  private frame: number[] | null = null;
  private escaping = false;
  private corrupt = false;

  /** Feeds received bytes; returns the frames they complete, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    for (const byte of chunk) {
      if (byte === SLIP_END) {
        if (this.frame !== null && this.frame.length > 0) {
          if (!this.corrupt) frames.push(Uint8Array.from(this.frame));
          this.frame = null;
        } else {
          this.frame = [];
        }
        this.escaping = false;
        this.corrupt = false;
        continue;
      }
      if (this.frame === null) continue;
      if (this.escaping) {
        this.escaping = false;
        if (byte === SLIP_ESC_END) this.frame.push(SLIP_END);
        else if (byte === SLIP_ESC_ESC) this.frame.push(SLIP_ESC);
        else this.corrupt = true;
      } else if (byte === SLIP_ESC) {
        this.escaping = true;
      } else {
        this.frame.push(byte);
      }
    }
    return frames;
  }

  reset(): void {
    this.frame = null;
    this.escaping = false;
    this.corrupt = false;
  }
}
