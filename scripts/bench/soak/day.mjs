// Plays the scripted day against the running daemon: the senders' and listeners' events at their
// times (schedule.mjs), one configuration change a second through the API (config-churn.mjs) and
// the hand edits of config.yaml, all on one lane so a hand edit never races an API change.
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDocument } from 'yaml';
import { nextChange } from './config-churn.mjs';
import { SINKS } from './house.mjs';
import { mp3Listener, wsListener } from './listeners.mjs';

const round2 = (x) => Math.round(x * 100) / 100;

/**
 * Runs the day until `endAt` (ms on `now()`); `ctx`: { plan, senders (by id), api, model, churnRng,
 * editRng, configPath, log, now, dashboard (or null) }. Resolves with { changes, refused, handEdits }.
 */
export async function playDay(ctx, endAt) {
  const { plan, now } = ctx;
  const counts = { changes: 0, refused: 0, handEdits: 0, handEditsMissed: 0 };
  const pendingEdits = [];
  let next = 0;
  const dispatcher = (async () => {
    while (now() < endAt) {
      while (next < plan.length && plan[next].at <= now()) {
        const e = plan[next++];
        if (e.type === 'hand-edit') pendingEdits.push(e);
        else dispatch(ctx, e);
      }
      await sleep(50);
    }
  })();
  // The configuration lane: a change every second, or a hand edit when one is due.
  for (let tick = 1; ; tick++) {
    const due = tick * 1000;
    if (due >= endAt) break;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    if (pendingEdits.length) {
      pendingEdits.shift();
      const took = await handEdit(ctx);
      counts.handEdits += 1;
      if (!took) counts.handEditsMissed += 1;
      tick = Math.ceil(now() / 1000);
      continue;
    }
    const change = nextChange(ctx.churnRng, ctx.model);
    try {
      const res = await ctx.api.call(change.method, change.path, change.body);
      if (res.status >= 200 && res.status < 300) {
        change.apply(ctx.model);
        counts.changes += 1;
        ctx.log('config-change', {
          kind: change.kind,
          method: change.method,
          path: change.path,
          ms: Math.round(res.ms),
        });
      } else {
        counts.refused += 1;
        ctx.log('config-refused', {
          kind: change.kind,
          method: change.method,
          path: change.path,
          body: change.body,
          status: res.status,
          answer: res.body,
        });
      }
    } catch (err) {
      counts.refused += 1;
      ctx.log('config-error', { kind: change.kind, path: change.path, error: err.message });
    }
  }
  await dispatcher;
  return counts;
}

function dispatch(ctx, e) {
  const sender = e.sender ? ctx.senders.get(e.sender) : null;
  if (e.type === 'sender-start') sender.start();
  else if (e.type === 'sender-stop') sender.stop();
  else if (e.type === 'sender-restart') sender.restart();
  else if (e.type === 'sender-stall') sender.stall(e.ms);
  else if (e.type === 'mp3-join') {
    const sink = SINKS.find((s) => s.name === e.sink);
    ctx.log('mp3-join', { sink: sink.key, ms: e.ms });
    mp3Listener(sink.ip, e.ms, ctx.log);
  } else if (e.type === 'ws-join') wsListener(e.feed, e.reads, e.ms, ctx.api.ca, ctx.log);
  else if (e.type === 'whep-join') void whepListener(ctx, e);
}

/** A WHEP session in the dashboard's browser (only with --dashboard: no browser otherwise). */
async function whepListener(ctx, e) {
  const sink = SINKS.find((s) => s.name === e.sink);
  const id = `whep-${sink.key}-${Math.round(ctx.now())}`;
  if (!ctx.dashboard) {
    ctx.log('whep-skipped', { id, why: 'no browser (run with --dashboard)' });
    return;
  }
  // The sink's config_id by its address (the churn renames sinks, never moves them).
  const res = await ctx.api.call('GET', '/sinks').catch(() => null);
  const found = res?.body?.find?.((s) => s.ip === sink.ip && !s.is_group);
  if (!found) {
    ctx.log('whep-error', { id, error: 'sink not found' });
    return;
  }
  ctx.log('whep-join', { id, sink: sink.key, ms: e.ms });
  await ctx.dashboard.whep(found.config_id, e.ms, id);
}

/**
 * A hand edit of config.yaml, as a user with an editor makes one: a sink's volume changed in the
 * file (comments and layout kept by the yaml package's document API), written in place. Waits
 * until the API shows it (the daemon reloads after CONFIGURATION_RELOAD_TIMEOUT, 1 s here).
 * Returns whether it took within 10 s.
 */
async function handEdit(ctx) {
  const sinks = [...ctx.model.sinks.values()].filter((s) => !s.group);
  const sink = ctx.editRng.pick(sinks);
  const volume = round2(sink.monitored ? ctx.editRng.range(0.2, 1) : ctx.editRng.range(0, 1));
  const doc = parseDocument(readFileSync(ctx.configPath, 'utf8'));
  const list = doc.get('sinks');
  const item = list?.items.find((i) => i.get('name') === sink.name);
  if (!item) {
    ctx.log('hand-edit-failed', { sink: sink.name, reason: 'not in config.yaml' });
    return false;
  }
  item.set('volume', volume);
  writeFileSync(ctx.configPath, doc.toString());
  ctx.log('hand-edit', { sink: sink.name, volume });
  sink.volume = volume;
  const started = ctx.now();
  while (ctx.now() - started < 10_000) {
    await sleep(250);
    try {
      const res = await ctx.api.call('GET', `/sinks/${encodeURIComponent(sink.name)}`);
      if (res.status === 200 && res.body.volume === volume) {
        ctx.log('hand-edit-applied', { sink: sink.name, ms: Math.round(ctx.now() - started) });
        return true;
      }
    } catch {}
  }
  ctx.log('hand-edit-not-applied', { sink: sink.name, volume });
  return false;
}
