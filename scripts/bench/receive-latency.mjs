// The arithmetic of `npm run bench -- receive` (bench-receive.mjs), kept pure so a unit test
// checks it (scripts/bench/test/receive-latency.test.mjs): Scream packets, the markers' onsets
// in a recording, when a recorded frame reached the recorder, and which sent marker an onset is.

export const RATE = 48_000;
/** Frames in one Scream packet: 1152 bytes of 16-bit stereo, 6 ms. */
export const PACKET_FRAMES = 288;

/**
 * A Scream packet, 48 kHz 16-bit stereo: the 5-byte header (rate byte 0x01 = 48 kHz x 1, 16 bits,
 * 2 channels, channel map FL|FR) and `frames` as s16le, the same value on both channels.
 * @param {ArrayLike<number>} frames samples in [-1, 1]
 */
export function screamPacket(frames) {
  const b = Buffer.alloc(5 + frames.length * 4);
  b.set([0x01, 16, 2, 0x03, 0x00]);
  for (let i = 0; i < frames.length; i++) {
    const v = Math.max(-32768, Math.min(32767, Math.round(frames[i] * 32767)));
    b.writeInt16LE(v, 5 + i * 4);
    b.writeInt16LE(v, 7 + i * 4);
  }
  return b;
}

/**
 * Where markers start in a recording: the first sample above `threshold` (absolute) after at
 * least `quietFrames` samples at or below it.
 * @param {ArrayLike<number>} x
 * @returns {number[]} frame indices
 */
export function markerOnsets(x, threshold, quietFrames) {
  const onsets = [];
  let quiet = quietFrames; // the recording's start counts as quiet
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]) > threshold) {
      if (quiet >= quietFrames) onsets.push(i);
      quiet = 0;
    } else quiet++;
  }
  return onsets;
}

/**
 * When frame `k` of a recording had reached the recorder (ms, the arrivals' clock): the arrival
 * of the first read that holds it. An upper bound by up to one read (parec --latency-msec=10:
 * about 10 ms), the same for the reference and the receiver's runs. (A tighter bound from the
 * sink's clock, the lowest `at - (frames - k) / rate` of the reads around it, failed: the null
 * sink renders ahead of its clock by varying amounts, and the estimate put markers 0.2 ms after
 * their write.)
 * @param {{ at: number, frames: number }[]} arrivals in order: frames recorded so far at `at`
 */
export function frameTime(arrivals, k) {
  return arrivals.find((a) => a.frames > k)?.at ?? null;
}

/**
 * Each sent marker's latency: the first onset at or after its send time and before the next
 * marker's, minus the send time. Markers never heard (or onsets no marker explains) are left out
 * and counted.
 * @param {number[]} sent send times (ms), ascending
 * @param {number[]} heard onset times (ms), ascending
 */
export function matchMarkers(sent, heard) {
  const latencies = [];
  let unexplained = 0;
  let j = 0;
  for (let i = 0; i < sent.length; i++) {
    const next = i + 1 < sent.length ? sent[i + 1] : Number.POSITIVE_INFINITY;
    while (j < heard.length && heard[j] < sent[i]) {
      j++;
      unexplained++;
    }
    if (j < heard.length && heard[j] < next) {
      latencies.push(heard[j] - sent[i]);
      j++;
      while (j < heard.length && heard[j] < next) {
        j++;
        unexplained++;
      }
    }
  }
  unexplained += heard.length - j;
  return { latencies, missed: sent.length - latencies.length, unexplained };
}

/** The nearest-rank percentile `p` (0-100) of `values`, or null when there are none. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}
