// Loaded into the daemon by the soak (NODE_OPTIONS=--import): every 10 s it appends one JSON line
// to the file SOAK_INSIDE_FILE names with what only the process itself can see: its memory
// (rss, heapUsed, heapTotal, external, arrayBuffers, V8's own malloc'd memory, and codeUsed: the
// part of heapUsed that is compiled code, V8's code spaces, which grows while the JIT still
// optimises functions the day has not run hot before) and its active
// handles and requests counted by type (process.getActiveResourcesInfo()). The soak starts the
// daemon with --expose-gc so each sample follows a full collection: heapUsed is then what the
// daemon keeps, not where the collector happened to be in its cycle (without it, heapUsed swings
// 37-57 MB between samples and a fitted slope measures the phase of the sawtooth). Its own timer
// is unref'd and counted like the others (one Timeout, constant).
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

const file = process.env.SOAK_INSIDE_FILE;
const EVERY_MS = 10_000;

function sample() {
  globalThis.gc?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  const { malloced_memory: v8Malloced } = getHeapStatistics();
  const codeUsed = getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('code_'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
  const resources = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  try {
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), rss, heapUsed, heapTotal, external, arrayBuffers, v8Malloced, codeUsed, resources })}\n`,
    );
  } catch {}
}

if (file) setInterval(sample, EVERY_MS).unref();
