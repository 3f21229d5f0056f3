// One soak, inside its network namespace: the daemon over the house's config.yaml, the
// receivers, the senders, the day played (day.mjs) while samples are taken every 10 s, then the
// checks at the end and the result file. Everything the run does goes to the events file
// (JSON lines, `at` in ms from the start) beside the result.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { machine } from '../bench-results.mjs';
import { actualConfig, configDifferences, expectedConfig, initialModel } from './config-churn.mjs';
import { startDaemon } from './daemon.mjs';
import { playDay } from './day.mjs';
import { CONTROL, initialConfigYaml, SINKS } from './house.mjs';
import { closeListeners } from './listeners.mjs';
import { startReceivers } from './receivers.mjs';
import {
  growth,
  printSummary,
  sharedGaps,
  sinkGaps,
  slopes,
  verdicts,
  whepSummary,
} from './report.mjs';
import { besideResult, finishResult, startResult } from './result-file.mjs';
import { readConfig, SAMPLE_EVERY_MS, takeSample } from './sampler.mjs';
import { planDay, prng, SENDERS } from './schedule.mjs';
import { Sender, startControl } from './senders.mjs';

/** Runs the soak; resolves with the result (also written to `out`). */
export async function runSoak({ minutes, seed, out, commit, dashboard: withDashboard }) {
  const bench = startResult(out);
  const t0 = performance.now();
  const wallStart = Date.now();
  const now = () => performance.now() - t0;
  const endAt = minutes * 60_000;
  const dir = mkdtempSync(join(tmpdir(), 'tributary-soak-'));
  const configPath = join(dir, 'config.yaml');
  const insideFile = join(dir, 'inside.jsonl');
  const eventsFile = besideResult(out, 'events');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(eventsFile, '');
  const events = [];
  const log = (type, fields = {}) => {
    const e = { at: Math.round(now()), type, ...fields };
    events.push(e);
    appendFileSync(eventsFile, `${JSON.stringify(e)}\n`);
  };
  let daemonLog = '';
  writeFileSync(configPath, initialConfigYaml());
  log('soak-start', { minutes, seed, dir, wall: new Date(wallStart).toISOString() });

  const daemon = await startDaemon(dir, insideFile, (c) => {
    daemonLog = (daemonLog + c).slice(-20_000);
    appendFileSync(join(dir, 'daemon.log'), c);
  });
  log('daemon-start', { pid: daemon.child.pid });
  const receivers = await startReceivers([...SINKS, CONTROL], performance.timeOrigin + t0);
  const stopControl = startControl();
  const dashboard = withDashboard
    ? await import('./dashboard-page.mjs').then((m) => m.openDashboard(log))
    : null;
  const senders = new Map(SENDERS.map((s, i) => [s.id, new Sender(s, i, log)]));
  const plan = planDay({ minutes, seed });
  const model = initialModel();
  const outside = [];
  let sampling = true;
  const sampler = (async () => {
    for (let n = 1; sampling; n++) {
      const wait = n * SAMPLE_EVERY_MS - now();
      if (wait > 0) await sleep(wait);
      if (!sampling) break;
      const s = await takeSample({
        pid: daemon.child.pid,
        api: daemon.api,
        configPath,
        receivers,
        now,
      });
      outside.push(s);
      const mins = (s.at / 60_000).toFixed(1);
      console.log(
        `  ${mins} min: RSS ${((s.vmRss ?? 0) / 1e6).toFixed(1)} MB, fds ${s.fds}, threads ${s.threads}, /api/stats ${s.statsMs} ms ${s.statsBytes} B, engine ${s.engineState} ${s.engineCpu?.toFixed?.(1)} %, 5xx ${s.errors5xx}`,
      );
    }
  })();

  let counts;
  try {
    counts = await playDay(
      {
        plan,
        senders,
        api: daemon.api,
        model,
        churnRng: prng(seed ^ 0x5eed),
        editRng: prng(seed + 7),
        configPath,
        log,
        now,
        dashboard,
      },
      endAt,
    );
  } finally {
    sampling = false;
  }
  await sampler;
  log('day-end');

  // The end: listeners and senders go, then the configuration is compared with the script's.
  await dashboard?.leaveWhep();
  const page = dashboard ? await dashboard.check() : null;
  await dashboard?.close();
  closeListeners();
  await Promise.all([...senders.values()].map((s) => s.stop()));
  stopControl();
  await sleep(1500);
  const expected = expectedConfig(model);
  let configDiff;
  try {
    const sinks = await daemon.api.call('GET', '/sinks');
    const routes = await daemon.api.call('GET', '/routes');
    configDiff = configDifferences(expected, actualConfig(sinks.body, routes.body));
  } catch (err) {
    configDiff = [`could not read the configuration: ${err.message}`];
  }
  let fileDiff;
  try {
    const file = readConfig(configPath);
    fileDiff = configDifferences(expected, actualConfig(file.sinks, file.routes));
  } catch (err) {
    fileDiff = [`config.yaml: ${err.message}`];
  }
  const daemonExit = daemon.exited();
  daemon.child.kill('SIGTERM');
  const received = await receivers.close();
  const inside = existsSync(insideFile)
    ? readFileSync(insideFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const s = JSON.parse(l);
          return { ...s, at: s.t - wallStart };
        })
    : [];
  const slope = slopes(outside, inside, minutes);
  const gaps = sinkGaps(received, events, endAt);
  const latencies = outside
    .map((s) => s.statsMs)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const cpus = outside.map((s) => s.engineCpu).filter(Number.isFinite);
  const result = {
    bench: 'soak',
    date: new Date(wallStart).toISOString(),
    minutes,
    seed,
    commit,
    machine: machine(),
    events: eventsFile,
    eventsCount: events.length,
    plannedEvents: plan.length,
    counts,
    slopes: slope,
    gaps,
    sharedGaps: sharedGaps(gaps),
    machineGaps: received.control?.gaps ?? [],
    growth: growth(outside, inside, slope.warmupMs),
    received: Object.fromEntries(
      Object.entries(received).map(([k, r]) => [k, { ...r, gaps: r.gaps.length }]),
    ),
    statsLatency: {
      p50: latencies[Math.floor(latencies.length / 2)] ?? null,
      max: latencies.at(-1) ?? null,
    },
    engineCpuMean: cpus.length ? cpus.reduce((a, b) => a + b, 0) / cpus.length : null,
    errors5xx: daemon.api.errors5xx,
    configDiff,
    fileDiff,
    dashboard: page,
    whep: whepSummary(events),
    senderExits: events.filter((e) => e.type === 'sender-exit'),
    samples: { outside, inside },
  };
  result.verdicts = verdicts({
    dashboard: page,
    whep: result.whep,
    machineGaps: result.machineGaps,
    minutes,
    slope,
    gaps,
    outside,
    errors5xx: daemon.api.errors5xx,
    configDiff,
    fileDiff,
    counts,
    daemonExit,
  });
  result.passed = result.verdicts.every((v) => v.ok || !v.gated);
  if (daemonExit) result.daemonLogTail = daemonLog.slice(-4000);
  printSummary(result);
  finishResult(bench, result, out);
  console.log(`\nresult: ${out}\nrecord: ${besideResult(out, 'record')}\nevents: ${eventsFile}`);
  if (result.passed) rmSync(dir, { recursive: true, force: true });
  else console.log(`daemon's files and log kept in ${dir}`);
  return result;
}
