// Loaded into the daemon by the soak (NODE_OPTIONS=--import): every 10 s it appends one JSON line
// to the file SOAK_INSIDE_FILE names with what only the process itself can see: its memory
// (rss, heapUsed, external, arrayBuffers) and its active handles and requests counted by type
// (process.getActiveResourcesInfo()). Its own timer is unref'd and counted like the others (one
// Timeout, constant).
import { appendFileSync } from 'node:fs';

const file = process.env.SOAK_INSIDE_FILE;
const EVERY_MS = 10_000;

function sample() {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const resources = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  try {
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), rss, heapUsed, external, arrayBuffers, resources })}\n`,
    );
  } catch {}
}

if (file) setInterval(sample, EVERY_MS).unref();
