// Log lines for a person at a terminal, from the JSON lines pino writes:
//   17:30:12.345Z INFO  [req-1] GET /sinks -> 200 in 2.1 ms
//   17:30:13.002Z WARN  API_PORT 443 is taken; using 8443
// LOG_FORMAT picks it: `auto` (the default) when stdout is a terminal, `json` for log collectors
// (journald, Docker) and scripts, `pretty` always. Times are UTC, as in the JSON.

const LEVELS: Record<number, [name: string, colour: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '90'],
  30: ['INFO', '32'],
  40: ['WARN', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};

/** Fields shown in the line's own places, or not at all. */
const PLACED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'err']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One pino JSON line as readable text; anything that is not a JSON object is left as it is. */
export function formatLogLine(line: string, colour: boolean): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!isRecord(entry)) return line;
  const time = typeof entry.time === 'number' ? new Date(entry.time) : null;
  const clock = time && !Number.isNaN(time.getTime()) ? time.toISOString().slice(11) : '--:--:--';
  const [name, code] = LEVELS[Number(entry.level)] ?? [String(entry.level ?? 'LOG'), '0'];
  const level = name.padEnd(5);
  const parts = [clock, colour ? `\u001b[${code}m${level}\u001b[0m` : level];
  if (entry.reqId !== undefined) parts.push(`[${value(entry.reqId)}]`);
  const req = isRecord(entry.req) ? entry.req : null;
  const res = isRecord(entry.res) ? entry.res : null;
  if (req) parts.push(`${value(req.method)} ${value(req.url)}`);
  if (res) {
    const took =
      typeof entry.responseTime === 'number' ? ` in ${entry.responseTime.toFixed(1)} ms` : '';
    parts.push(`-> ${value(res.statusCode)}${took}`);
  }
  // Fastify's own "incoming request" / "request completed" say nothing the fields above do not.
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  const routine = (req || res) && (msg === 'incoming request' || msg === 'request completed');
  if (msg && !routine) parts.push(msg);
  for (const [k, v] of Object.entries(entry)) {
    if (!PLACED.has(k) && !(k === 'responseTime' && res)) parts.push(`${k}=${value(v)}`);
  }
  let text = parts.join(' ');
  const err = isRecord(entry.err) ? entry.err : null;
  if (err) {
    const stack =
      typeof err.stack === 'string' ? err.stack : `${value(err.type)}: ${value(err.message)}`;
    text += `\n${stack
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}`;
  }
  return text;
}

/** A pino destination that writes each line readably to `out`. */
export function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean }): {
  write(chunk: string): boolean;
} {
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  return {
    write(chunk: string) {
      const lines = chunk.split('\n').filter((l) => l !== '');
      return out.write(`${lines.map((l) => formatLogLine(l, colour)).join('\n')}\n`);
    },
  };
}
