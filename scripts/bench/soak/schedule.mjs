// The soak's scripted day, decided in advance from one seed: every sender's timeline (play, then
// stop, restart with a new SSRC or stall, again and again), the listeners that come and go, and
// the hand edits of config.yaml. Pure: the same seed and length give the same day, so a failure
// replays (`--seed`). The per-second configuration changes come from the same PRNG family
// (config-churn.mjs), drawn as the run goes.

/** A seeded PRNG (mulberry32): `next()` in [0, 1), and helpers drawing from it. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** A number in [lo, hi). */
    range: (lo, hi) => lo + next() * (hi - lo),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

/** The formats SAP senders take in turn, one more at each restart. */
const STEREO_48K = { rate: 48000, channels: 2 };
const MONO_44K = { rate: 44100, channels: 1 };
const STEREO_44K = { rate: 44100, channels: 2 };
const MONO_48K = { rate: 48000, channels: 1 };

/**
 * The senders of the day, sixteen as in a busy house: `kind` (rtp: ffmpeg -re L16 RTP to a
 * source's port; scream: the soak's Scream sender from its own address `from`; sap: ffmpeg
 * announcing its RTP stream with SAP, in `formats` it changes at each restart; pulse: a
 * PulseAudio of its own playing a sine through module-rtp-send, which announces with SAP too) and
 * the sink it is heard on (`sink`: the monitored sink its route plays to; null: played into a
 * source no monitored sink plays, for the engine's load and churn). Every announced stream joins
 * the SAP streams group, which Garden plays: all of them are Garden's.
 */
export const SENDERS = [
  { id: 'rtp-1', kind: 'rtp', hz: 440, sink: 'Kitchen' },
  { id: 'rtp-2', kind: 'rtp', hz: 660, sink: 'Office' },
  { id: 'scream-1', kind: 'scream', hz: 550, sink: 'Bedroom', from: '127.0.2.1' },
  { id: 'sap-1', kind: 'sap', hz: 880, sink: 'Garden' },
  { id: 'rtp-3', kind: 'rtp', hz: 330, sink: null },
  { id: 'sap-2', kind: 'sap', hz: 990, sink: 'Garden', formats: [STEREO_48K, MONO_44K] },
  { id: 'pulse-1', kind: 'pulse', hz: 770, sink: 'Garden' },
  { id: 'rtp-4', kind: 'rtp', hz: 220, sink: null },
  { id: 'rtp-5', kind: 'rtp', hz: 247, sink: null },
  { id: 'rtp-6', kind: 'rtp', hz: 262, sink: null },
  { id: 'rtp-7', kind: 'rtp', hz: 294, sink: null },
  { id: 'rtp-8', kind: 'rtp', hz: 349, sink: null },
  { id: 'rtp-9', kind: 'rtp', hz: 392, sink: null },
  { id: 'scream-2', kind: 'scream', hz: 523, sink: null, from: '127.0.2.2' },
  { id: 'sap-3', kind: 'sap', hz: 587, sink: 'Garden', formats: [STEREO_44K, MONO_48K] },
  { id: 'pulse-2', kind: 'pulse', hz: 659, sink: 'Garden' },
];

/** The senders that announce with SAP (multicast RTP the daemon discovers). */
export const ANNOUNCED = SENDERS.filter((s) => s.kind === 'sap' || s.kind === 'pulse');

/** The format a sender plays on its `n`th start (its formats in turn; 48 kHz stereo if none). */
export function formatOf(sender, n) {
  const formats = sender.formats ?? [STEREO_48K];
  return formats[n % formats.length];
}

/** The sinks whose recordings are checked for gaps: each plays its senders throughout. */
export const MONITORED = [...new Set(SENDERS.filter((s) => s.sink).map((s) => s.sink))];

/** What a sender does after a spell of playing, and how likely each is. */
const ACTIONS = [
  ['stop', 0.35],
  ['restart', 0.3],
  ['stall', 0.35],
];

function drawAction(r) {
  let x = r.next();
  for (const [action, p] of ACTIONS) {
    if (x < p) return action;
    x -= p;
  }
  return ACTIONS[ACTIONS.length - 1][0];
}

/**
 * The day for `minutes` from `seed`: a list of `{ at, type, ... }` (at: ms from the start), in
 * time order. Sender events: sender-start, sender-stop, sender-restart, sender-stall (with `ms`,
 * SIGSTOP then SIGCONT). Listener events: mp3-join, whep-join (a WebRTC session in Chromium),
 * ws-join (feed stats or levels, `reads` false for a client that never reads), each with `ms` to
 * stay. hand-edit every minutes/6
 * (every 10 minutes of an hour).
 */
export function planDay({ minutes, seed }) {
  const r = prng(seed);
  const end = minutes * 60_000;
  const events = [];
  // Spells scale with the run: an hour plays 40-240 s between events, five minutes 8-40 s.
  const scale = Math.min(1, Math.max(0.2, minutes / 60));
  for (const s of SENDERS) {
    let t = r.int(500, 4000);
    events.push({ at: t, type: 'sender-start', sender: s.id });
    for (;;) {
      t += Math.round(r.range(40_000, 240_000) * scale);
      if (t > end - 20_000) break;
      const action = drawAction(r);
      if (action === 'stall') {
        events.push({ at: t, type: 'sender-stall', sender: s.id, ms: r.int(200, 3000) });
      } else if (action === 'restart') {
        events.push({ at: t, type: 'sender-restart', sender: s.id });
      } else {
        const off = r.int(3000, 30_000);
        events.push({ at: t, type: 'sender-stop', sender: s.id });
        events.push({ at: t + off, type: 'sender-start', sender: s.id });
        t += off;
      }
    }
  }
  // Listeners: one joins every 5-40 s (scaled), stays 5-120 s.
  for (
    let t = r.int(2000, 10_000);
    t < end - 10_000;
    t += Math.round(r.range(5000, 40_000) * scale)
  ) {
    const ms = Math.round(r.range(5000, 120_000) * scale);
    const x = r.next();
    if (x < 0.3) events.push({ at: t, type: 'mp3-join', sink: r.pick(MONITORED), ms });
    else if (x < 0.45) events.push({ at: t, type: 'whep-join', sink: r.pick(MONITORED), ms });
    else {
      const feed = x < 0.7 ? 'stats' : 'levels';
      events.push({ at: t, type: 'ws-join', feed, reads: r.next() < 0.7, ms });
    }
  }
  const editEvery = end / 6;
  for (let t = editEvery; t < end - 5000; t += editEvery) {
    events.push({ at: Math.round(t), type: 'hand-edit' });
  }
  return events.sort((a, b) => a.at - b.at);
}
