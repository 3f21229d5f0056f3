// What a sink's recording says: the gaps heard in it (packets more than 40 ms apart, or a run of
// silent packets longer than 40 ms) and, for each, whether a sender caused it. A sender causes a
// gap when the gap lies inside a time all the senders routed to that sink were out (not started
// yet, stopped, restarting or stalled, from the events log), widened by a margin: before the
// outage for clock skew, after it for the engine to hear the sender again (SAP streams need an
// announcement first). Pure: the soak's recordings and events log go in, gaps come out.

/** A packet gap or a silence counts from this long. */
export const GAP_MS = 40;

/**
 * A gap finder fed one packet at a time (`push(at, ms, silent)`: arrival in ms, the time it
 * plays, whether it is silent), so an hour of packets is never held: `end()` returns the gaps
 * from the first packet on, `{ from, to, kind: 'packets' | 'silence' }`.
 */
export function gapFinder(gapMs = GAP_MS) {
  const gaps = [];
  let silentFrom = null;
  let prevAt = null;
  let prevMs = 0;
  const closeSilence = (to) => {
    if (silentFrom !== null && to - silentFrom > gapMs) {
      gaps.push({ from: silentFrom, to, kind: 'silence' });
    }
    silentFrom = null;
  };
  return {
    push(at, ms, silent) {
      if (prevAt !== null && at - prevAt > gapMs) {
        closeSilence(prevAt + prevMs);
        gaps.push({ from: prevAt, to: at, kind: 'packets' });
      }
      if (silent) silentFrom ??= at;
      else closeSilence(at);
      prevAt = at;
      prevMs = ms;
    },
    end() {
      if (prevAt !== null) closeSilence(prevAt + prevMs);
      return gaps;
    },
  };
}

/** The gaps in a list of packets (`{ at, ms, silent }`), as gapFinder finds them. */
export function findGaps(packets, gapMs = GAP_MS) {
  const finder = gapFinder(gapMs);
  for (const p of packets) finder.push(p.at, p.ms, p.silent);
  return finder.end();
}

/** Events that take a sender off the air, and those that put it back. */
const DOWN = new Set(['sender-stop', 'sender-exit', 'sender-restart', 'sender-stall']);
const UP = new Set(['sender-start', 'sender-restarted', 'sender-cont']);

/**
 * Each sender's outages from the events log (`{ at, type, sender }`, time order) up to `end`:
 * before its first start, and from each stop, unplanned exit, restart or stall (SIGSTOP) to the
 * next start, restarted process or SIGCONT; and a pause the sender reported itself
 * (`sender-late`, logged when it resumed, `ms` long). Returns a Map of sender -> [{ from, to }].
 */
export function outages(events, senders, end) {
  const out = new Map(senders.map((s) => [s, []]));
  const downSince = new Map(senders.map((s) => [s, 0]));
  for (const e of events) {
    if (!out.has(e.sender)) continue;
    const since = downSince.get(e.sender);
    if (e.type === 'sender-late') {
      out.get(e.sender).push({ from: e.at - e.ms, to: e.at });
      continue;
    }
    if (UP.has(e.type) && since !== null) {
      out.get(e.sender).push({ from: since, to: e.at });
      downSince.set(e.sender, null);
    } else if (DOWN.has(e.type) && since === null) {
      downSince.set(e.sender, e.at);
    }
  }
  for (const [s, since] of downSince) if (since !== null) out.get(s).push({ from: since, to: end });
  return out;
}

/** Intervals widened by `before` and `after` ms, sorted and merged. */
export function widen(intervals, before, after) {
  const sorted = intervals
    .map((i) => ({ from: i.from - before, to: i.to + after }))
    .sort((a, b) => a.from - b.from);
  const merged = [];
  for (const i of sorted) {
    const last = merged[merged.length - 1];
    if (last && i.from <= last.to) last.to = Math.max(last.to, i.to);
    else merged.push({ ...i });
  }
  return merged;
}

/** The times inside every list at once (each list sorted and merged). */
export function intersect(lists) {
  if (lists.length === 0) return [];
  let acc = lists[0];
  for (const list of lists.slice(1)) {
    const next = [];
    let i = 0;
    let j = 0;
    while (i < acc.length && j < list.length) {
      const from = Math.max(acc[i].from, list[j].from);
      const to = Math.min(acc[i].to, list[j].to);
      if (from < to) next.push({ from, to });
      if (acc[i].to < list[j].to) i++;
      else j++;
    }
    acc = next;
  }
  return acc;
}

/**
 * Splits `gaps` into those the senders caused, those the machine caused and the others: a gap is
 * the senders' when it lies inside one interval of `explained` (intersect() of the sink's
 * senders' widened outages), the machine's when it overlaps a gap of the control stream (a
 * plain paced sender to a receiver of the soak's: the machine paused everything) widened by
 * `slackMs` either side.
 */
export function attribute(gaps, explained, machine = [], slackMs = 20) {
  const caused = [];
  const byMachine = [];
  const unexplained = [];
  for (const g of gaps) {
    if (explained.some((i) => g.from >= i.from && g.to <= i.to)) caused.push(g);
    else if (machine.some((m) => g.from < m.to + slackMs && m.from - slackMs < g.to))
      byMachine.push(g);
    else unexplained.push(g);
  }
  return { caused, byMachine, unexplained };
}
