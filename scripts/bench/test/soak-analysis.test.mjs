import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hourlySlope, slope, warmupMs } from '../soak/fit.mjs';
import { attribute, findGaps, intersect, outages, widen } from '../soak/gaps.mjs';
import { peakL16, rtpPayload } from '../soak/receivers.mjs';
import { growth, sharedGaps, sinkGaps, slopes, verdicts, whepSummary } from '../soak/report.mjs';
import { SENDERS } from '../soak/schedule.mjs';

test('slope: least squares of a line, of noise around it, and nothing to fit', () => {
  assert.equal(slope([0, 1, 2, 3], [1, 3, 5, 7]), 2);
  assert.ok(Math.abs(slope([0, 1, 2, 3, 4], [0, 1.2, 1.8, 3.1, 3.9]) - 0.97) < 1e-9);
  assert.equal(slope([1], [1]), null);
  assert.equal(slope([2, 2, 2], [1, 2, 3]), null);
});

test('hourly slope: only samples after the warm-up count, in units per hour', () => {
  // 100 MB at the start, a spike in the warm-up, then 2 MB more every 10 minutes.
  const samples = Array.from({ length: 13 }, (_, i) => ({
    at: i * 600_000,
    rss: i === 0 ? 900e6 : 100e6 + i * 2e6,
  }));
  assert.ok(Math.abs(hourlySlope(samples, 'rss', 600_000, 1e6) - 12) < 1e-9);
  assert.ok(hourlySlope(samples, 'rss', 0, 1e6) < 0, 'the spike would hide the growth');
  assert.equal(hourlySlope(samples.slice(0, 3), 'rss', 600_000, 1e6), null);
  assert.equal(warmupMs(60), 600_000);
  assert.equal(warmupMs(120), 600_000);
  assert.equal(warmupMs(6), 60_000);
});

test('heap slopes: compiled code apart from objects, and a late fit that shows growth slowing', () => {
  // 60 minutes: objects flat at 20 MB; code grows 2 MB in the first half hour after the warm-up,
  // then 0.2 MB; RSS grows 1 MB per 10 minutes throughout (a leak stays a leak late).
  const inside = [];
  const outside = [];
  for (let m = 0; m <= 60; m += 1) {
    const code = 10e6 + (m <= 35 ? (m * 2e6) / 35 : 2e6 + ((m - 35) * 0.2e6) / 25);
    inside.push({ at: m * 60_000, heapUsed: 20e6 + code, codeUsed: code });
    outside.push({ at: m * 60_000, vmRss: 100e6 + m * 0.1e6 });
  }
  const s = slopes(outside, inside, 60);
  assert.ok(Math.abs(s.heapObjectsMBPerHour) < 1e-9, String(s.heapObjectsMBPerHour));
  assert.ok(Math.abs(s.heapCodeMBPerHour - s.heapMBPerHour) < 1e-9);
  assert.equal(s.late.fromMs, 35 * 60_000);
  assert.ok(Math.abs(s.late.heapCodeMBPerHour - 0.48) < 1e-6, String(s.late.heapCodeMBPerHour));
  assert.ok(s.heapCodeMBPerHour > 1.9, String(s.heapCodeMBPerHour));
  assert.ok(Math.abs(s.late.rssMBPerHour - 6) < 1e-6 && Math.abs(s.rssMBPerHour - 6) < 1e-6);
});

test('gaps: packets more than 40 ms apart, and silences longer than 40 ms', () => {
  const packets = [];
  for (let t = 0; t < 1000; t += 5) {
    if (t > 200 && t < 300) continue; // nothing for 100 ms
    packets.push({ at: t, ms: 5, silent: t >= 500 && t < 600 }); // 100 ms of zeros
  }
  packets.push({ at: 1000, ms: 5, silent: true }, { at: 1005, ms: 5, silent: true });
  assert.deepEqual(findGaps(packets), [
    { from: 200, to: 300, kind: 'packets' },
    { from: 500, to: 600, kind: 'silence' },
  ]);
  assert.deepEqual(
    findGaps(
      packets.filter((p) => p.at < 1000),
      150,
    ),
    [],
  );
});

test('outages: before the first start, stop to start, restart, stall to SIGCONT, open at the end', () => {
  const events = [
    { at: 100, type: 'sender-start', sender: 'a' },
    { at: 1000, type: 'sender-stop', sender: 'a' },
    { at: 3000, type: 'sender-start', sender: 'a' },
    { at: 4000, type: 'sender-restart', sender: 'a' },
    { at: 4050, type: 'sender-restarted', sender: 'a' },
    { at: 5000, type: 'sender-stall', sender: 'a', ms: 700 },
    { at: 5700, type: 'sender-cont', sender: 'a' },
    { at: 5900, type: 'sender-late', sender: 'a', ms: 80 },
    { at: 6000, type: 'sender-exit', sender: 'a', code: 1 },
    { at: 200, type: 'sender-start', sender: 'b' },
    { at: 50, type: 'mp3-join' },
  ];
  const out = outages(events, ['a', 'b', 'c'], 9000);
  assert.deepEqual(out.get('a'), [
    { from: 0, to: 100 },
    { from: 1000, to: 3000 },
    { from: 4000, to: 4050 },
    { from: 5000, to: 5700 },
    { from: 5820, to: 5900 },
    { from: 6000, to: 9000 },
  ]);
  assert.deepEqual(out.get('b'), [{ from: 0, to: 200 }]);
  assert.deepEqual(out.get('c'), [{ from: 0, to: 9000 }], 'never started');
});

test('attribution: a gap inside a widened outage is the sender’s, any other is unexplained', () => {
  const a = widen(
    [
      { from: 1000, to: 2000 },
      { from: 2500, to: 3000 },
    ],
    100,
    600,
  );
  assert.deepEqual(a, [{ from: 900, to: 3600 }], 'merged once widened');
  const b = widen([{ from: 3000, to: 5000 }], 100, 600);
  // A sink fed by both: only the time both are out explains a gap.
  const both = intersect([a, b]);
  assert.deepEqual(both, [{ from: 2900, to: 3600 }]);
  const gaps = [
    { from: 950, to: 1500, kind: 'silence' },
    { from: 3000, to: 3300, kind: 'packets' },
    { from: 3500, to: 3700, kind: 'packets' },
    { from: 8000, to: 8100, kind: 'packets' },
  ];
  const one = attribute(gaps, a);
  assert.deepEqual(
    one.caused.map((g) => g.from),
    [950, 3000],
  );
  assert.deepEqual(
    one.unexplained.map((g) => g.from),
    [3500, 8000],
  );
  const paused = attribute(gaps, a, [{ from: 7900, to: 7985 }]);
  assert.deepEqual(
    paused.byMachine.map((g) => g.from),
    [8000],
    'the control stream paused 15 ms before',
  );
  assert.deepEqual(
    paused.unexplained.map((g) => g.from),
    [3500],
  );
  assert.deepEqual(attribute(gaps, a, [{ from: 7000, to: 7900 }]).byMachine, [], 'too far apart');
  const shared = attribute(gaps, both);
  assert.deepEqual(
    shared.caused.map((g) => g.from),
    [3000],
    'a stopped while b played: not explained',
  );
});

test('gaps every sink heard at once, and what grew after the warm-up', () => {
  const gaps = {
    x: {
      unexplained: [
        { from: 10, to: 60 },
        { from: 500, to: 560 },
      ],
    },
    y: { unexplained: [{ from: 20, to: 70 }] },
  };
  assert.deepEqual(sharedGaps(gaps), [{ from: 10, to: 60 }]);
  const outside = [
    { at: 0, threadNames: { rx: 1 }, fdKinds: { socket: 5 } },
    { at: 100, threadNames: { rx: 2, node: 11 }, fdKinds: { socket: 9 } },
    { at: 200, threadNames: { rx: 9, node: 11 }, fdKinds: { socket: 9, pipe: 1 } },
  ];
  assert.deepEqual(growth(outside, [], 100), [
    { what: 'threads named rx', from: 2, to: 9 },
    { what: 'descriptors of kind pipe', from: 0, to: 1 },
  ]);
});

test('receiver: the L16 payload after header, CSRCs, extension and padding; its peak', () => {
  const header = Buffer.from([0x80 | 0x20 | 0x10 | 1, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
  const csrc = Buffer.alloc(4);
  const ext = Buffer.from([0xbe, 0xde, 0, 1, 0, 0, 0, 0]);
  const samples = Buffer.alloc(8);
  samples.writeInt16BE(-16384, 2);
  const padding = Buffer.from([0, 0, 3]);
  const payload = rtpPayload(Buffer.concat([header, csrc, ext, samples, padding]));
  assert.equal(payload.length, 8);
  assert.equal(peakL16(payload), 0.5);
  assert.equal(rtpPayload(Buffer.from([0x40, 0])), null, 'not RTP');
});

test('sink gaps: only the day counts (the soak stops the senders after it), by cause', () => {
  const events = [
    ...SENDERS.map((s) => ({ at: 100, type: 'sender-start', sender: s.id })),
    { at: 3000, type: 'sender-stall', sender: 'rtp-1', ms: 500 },
    { at: 3500, type: 'sender-cont', sender: 'rtp-1' },
    { at: 8000, type: 'day-end' },
    ...SENDERS.map((s) => ({ at: 8100, type: 'sender-stop', sender: s.id })),
  ];
  const gap = (from, to) => ({ from, to, kind: 'silence' });
  const received = {
    kitchen: {
      packets: 10,
      gaps: [gap(3100, 3400), gap(7000, 7100), gap(7500, 7600), gap(8200, 9000)],
    },
    office: { packets: 10, gaps: [gap(3100, 3400)] },
    control: { gaps: [{ from: 7490, to: 7550, kind: 'packets' }] },
  };
  const g = sinkGaps(received, events, 9000);
  assert.equal(g.kitchen.causedBySender, 1, 'the stall (and 3 s after it)');
  assert.equal(g.kitchen.causedByMachine, 1, 'the control paused too');
  assert.deepEqual(
    g.kitchen.unexplained,
    [gap(7000, 7100)],
    'the one after day-end is not counted',
  );
  assert.deepEqual(g.office.unexplained, [gap(3100, 3400)], 'rtp-2 was playing');
  assert.equal(g.garden.packets, 0);
});

test('WHEP sessions: counted from the events log, and the check fails on any that did not hear', () => {
  const events = [
    { type: 'whep-join', id: 'a' },
    { type: 'whep-open', id: 'a', status: 201, candidates: 1 },
    { type: 'whep-leave', id: 'a', packets: 500, ice: 'connected', deleted: 200 },
    { type: 'whep-join', id: 'b' },
    { type: 'whep-open', id: 'b', status: 201, candidates: 0 },
    { type: 'whep-leave', id: 'b', packets: 0, ice: 'checking', deleted: 200 },
    { type: 'whep-join', id: 'c' },
    { type: 'whep-open', id: 'c', status: 503 },
  ];
  const w = whepSummary(events);
  assert.deepEqual(
    [w.joins, w.answered, w.refused, w.left, w.heard, w.packets, w.withoutCandidates, w.connected],
    [3, 2, [503], 2, 1, 500, 1, 1],
  );
  const base = {
    minutes: 5,
    slope: { rssMBPerHour: null, heapMBPerHour: null, fdsPerHour: null },
    gaps: {},
    outside: [],
    errors5xx: [],
    configDiff: [],
    fileDiff: [],
    counts: { changes: 0, refused: 0, handEdits: 0, handEditsMissed: 0 },
    daemonExit: null,
  };
  const check = (whep) =>
    verdicts({ ...base, whep }).find((v) => v.name.startsWith('every WHEP session'));
  assert.equal(check(w).ok, false);
  assert.equal(check(w).gated, false, 'recorded, not judged (bench/README.md says why)');
  assert.equal(check(whepSummary(events.slice(0, 3))).ok, true);
  assert.equal(check(whepSummary([])), undefined, 'no session, no check');
});
