// Failures while flashing, each with a message that says what happened and what to do next.

export type FlashErrorKind =
  | 'wrong-chip'
  | 'port-busy'
  | 'connection-lost'
  | 'no-bootloader'
  | 'verify-failed'
  | 'failed';

export interface FlashErrorDetails {
  chip?: string;
  expected?: string[];
  cause?: string;
}

function messageFor(kind: FlashErrorKind, details: FlashErrorDetails): string {
  switch (kind) {
    case 'wrong-chip': {
      const expected = details.expected?.join(' or ') ?? 'ESP32-S3';
      return `This board has an ${details.chip ?? 'unknown'} chip, but this firmware is built for the ${expected}. Connect an ${expected} board and try again.`;
    }
    case 'port-busy':
      return 'The serial port is in use by another program (a serial monitor, the Arduino IDE or another browser tab). Close it and try again.';
    case 'connection-lost':
      return 'Lost the connection to the board. Check the USB cable, plug the board back in and install again; until an install completes the board may not start.';
    case 'no-bootloader':
      return 'The board did not answer. Hold its BOOT button, press and release RESET, release BOOT, then try again. If it still fails, try another USB cable (some only charge).';
    case 'verify-failed':
      return 'What the board holds differs from the firmware that was sent (MD5 check failed). Try again with "Erase the whole flash first" ticked; if it persists the flash chip may be faulty.';
    case 'failed':
      return `Installing failed: ${details.cause ?? 'unknown error'}`;
  }
}

export class FlashError extends Error {
  override name = 'FlashError';

  constructor(
    readonly kind: FlashErrorKind,
    readonly details: FlashErrorDetails = {},
  ) {
    super(messageFor(kind, details));
  }
}

/** Turns what esptool-js or Web Serial threw into a FlashError. */
export function describeFlashFailure(error: unknown, deviceLost = false): FlashError {
  if (error instanceof FlashError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const message =
    error instanceof Error || error instanceof DOMException ? error.message : String(error);
  if (deviceLost || /device has been lost/i.test(message))
    return new FlashError('connection-lost', { cause: message });
  if (name === 'NetworkError' && /open/i.test(message))
    return new FlashError('port-busy', { cause: message });
  if (name === 'InvalidStateError' && /open/i.test(message))
    return new FlashError('port-busy', { cause: message });
  if (/Failed to connect with the device/i.test(message))
    return new FlashError('no-bootloader', { cause: message });
  if (/MD5 of file does not match/i.test(message))
    return new FlashError('verify-failed', { cause: message });
  if (/Serial data stream stopped|No serial data received|Timeout/i.test(message)) {
    return new FlashError('connection-lost', { cause: message });
  }
  return new FlashError('failed', { cause: message });
}
