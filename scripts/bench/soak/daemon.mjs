// The daemon under soak, as users run it (`node daemon/dist/cli.js serve`) with discovery and the
// engine on and the soak's preload inside, and the soak's client of its API: HTTPS trusting the
// certificate it generated, no Origin (a program, not a page), every 5xx counted.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { root } from '../bench-results.mjs';
import { API_PORT, HTTP_PORT, SCREAM_PORT, WEBRTC_ADDRESS, WEBRTC_LINK } from './house.mjs';

const preload = new URL('./preload.mjs', import.meta.url).href;

/** Starts `tributary serve` over `dir/config.yaml`; resolves once its API answers. */
export async function startDaemon(dir, insideFile, log) {
  const child = spawn(process.execPath, [join(root, 'daemon/dist/cli.js'), 'serve'], {
    cwd: dir,
    env: {
      ...process.env,
      // SOAK_NODE_OPTIONS adds the investigator's own (e.g. --heapsnapshot-signal=SIGUSR2).
      // As the systemd unit runs it (daemon/systemd/tributary.service).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      NODE_OPTIONS: `--expose-gc --import ${preload} ${process.env.SOAK_NODE_OPTIONS ?? ''}`.trim(),
      SOAK_INSIDE_FILE: insideFile,
      API_HOST: '127.0.0.1',
      API_PORT: String(API_PORT),
      HTTP_PORT: String(HTTP_PORT),
      CONFIG_PATH: join(dir, 'config.yaml'),
      CONFIGURATION_RELOAD_TIMEOUT: '1',
      ENGINE: 'on',
      ENGINE_BIND: '0.0.0.0',
      // WebRTC on the namespace's veth (Chromium offers no candidate on loopback alone).
      WEBRTC_ADDRESSES: networkInterfaces()[WEBRTC_LINK] ? WEBRTC_ADDRESS : '127.0.0.1',
      SCREAM_PORTS: String(SCREAM_PORT),
      SCREAM_TAGGED_PORT: 'off',
      RTP_PORTS: 'off',
      DISCOVERY: 'on',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', log);
  child.stderr.on('data', log);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  for (let i = 0; i < 300; i++) {
    if (exited) throw new Error(`the daemon exited at start (${JSON.stringify(exited)})`);
    try {
      const ca = readFileSync(join(dir, 'tributary.crt'), 'utf8');
      const api = apiClient(ca);
      const res = await api.call('GET', '/api/stats');
      if (res.status === 200) return { child, api, exited: () => exited };
    } catch {}
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the daemon did not answer GET /api/stats within 30 s');
}

/** The API over HTTPS on 127.0.0.1: `call` resolves { status, body, bytes, ms }. */
export function apiClient(ca) {
  const errors5xx = [];
  const call = (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = performance.now();
      const req = request(
        `https://127.0.0.1:${API_PORT}${path}`,
        {
          method,
          ca,
          headers: payload ? { 'content-type': 'application/json' } : {},
          timeout: 15_000,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            let parsed = raw.toString('utf8');
            try {
              parsed = JSON.parse(parsed);
            } catch {}
            const status = res.statusCode ?? 0;
            if (status >= 500) errors5xx.push({ method, path, status, body: parsed });
            resolve({ status, body: parsed, bytes: raw.length, ms: performance.now() - started });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  return { call, errors5xx, ca };
}

/** What /proc says of the process: VmRSS (bytes), Threads, open descriptors. */
export function procSample(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)/m.exec(status);
    const threads = /^Threads:\s+(\d+)/m.exec(status);
    const fdList = readdirCount(`/proc/${pid}/fd`);
    return {
      threadNames: threadNames(pid),
      fdKinds: fdKinds(pid),
      vmRss: kb ? Number(kb[1]) * 1024 : null,
      threads: threads ? Number(threads[1]) : null,
      fds: fdList,
    };
  } catch {
    return { vmRss: null, threads: null, fds: null };
  }
}

/** Open descriptors counted by kind (socket, pipe, anon_inode:[eventfd], file...). */
function fdKinds(pid) {
  const counts = {};
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const kind = /^(socket|pipe):/.test(target)
          ? target.split(':')[0]
          : target.startsWith('anon_inode:')
            ? target
            : 'file';
        counts[kind] = (counts[kind] ?? 0) + 1;
      } catch {}
    }
  } catch {}
  return counts;
}

/** The process's threads counted by name (/proc/PID/task/N/comm): which kind grows. */
function threadNames(pid) {
  const counts = {};
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
        counts[name] = (counts[name] ?? 0) + 1;
      } catch {}
    }
  } catch {}
  return counts;
}

function readdirCount(dir) {
  try {
    return readdirSync(dir).length;
  } catch {
    return null;
  }
}
