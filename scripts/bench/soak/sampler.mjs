// The soak's samples from outside the daemon, every 10 s: /proc (VmRSS, threads, open
// descriptors), GET /api/stats (its latency, its size, the engine's state, CPU and last fault),
// the 5xx answers seen so far, whether config.yaml parses with the daemon's own loader, and the
// receivers' packet counts. The daemon's own view (memory, handles) comes from the preload's file
// and is joined to these by time (report.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../bench-results.mjs';
import { procSample } from './daemon.mjs';

export const SAMPLE_EVERY_MS = 10_000;

const { parseConfigText } = await import(
  pathToFileURL(join(root, 'daemon/dist/config/documents.js')).href
);

/** Whether config.yaml parses and validates as the daemon loads it: null if so, else why. */
export function configProblem(path) {
  try {
    parseConfigText(readFileSync(path, 'utf8'), path);
    return null;
  } catch (err) {
    return (err.problems ? JSON.stringify(err.problems) : err.message).slice(0, 500);
  }
}

/** Reads config.yaml as the daemon would (throws when it does not parse). */
export function readConfig(path) {
  return parseConfigText(readFileSync(path, 'utf8'), path).value;
}

/** One sample. */
export async function takeSample({ pid, api, configPath, receivers, now }) {
  const at = Math.round(now());
  const sample = { at, ...procSample(pid) };
  try {
    const res = await api.call('GET', '/api/stats');
    sample.statsMs = Math.round(res.ms * 10) / 10;
    sample.statsBytes = res.bytes;
    sample.statsStatus = res.status;
    const engine = res.body?.engine ?? {};
    sample.engineState = engine.state ?? null;
    sample.engineCpu = engine.cpu_percent ?? null;
    sample.engineRestarts = engine.restarts ?? null;
    sample.engineFault = engine.last_fault ?? null;
    sample.feeds = res.body?.feeds ?? null;
  } catch (err) {
    sample.statsError = err.message;
  }
  sample.errors5xx = api.errors5xx.length;
  sample.configProblem = configProblem(configPath);
  sample.received = Object.fromEntries(
    Object.entries(await receivers.stats()).map(([k, s]) => [k, s.packets]),
  );
  return sample;
}
