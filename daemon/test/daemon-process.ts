// Runs the real `tributary serve` in a child process over files in a directory, and talks HTTPS
// to it, trusting the certificate it generated (so the test also proves the certificate is
// valid for 127.0.0.1).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCertificate } from '../src/http/certificate.js';

export const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** The audio engine on 127.0.0.1 with a Scream port the system picks, nothing else. */
export const engineOnLoopback = {
  ENGINE: 'on',
  ENGINE_BIND: '127.0.0.1',
  SCREAM_PORTS: '0',
  SCREAM_TAGGED_PORT: 'off',
  RTP_PORTS: 'off',
};

export interface Daemon {
  readonly child: ChildProcess;
  readonly apiUrl: string;
  readonly httpUrl: string | null;
  /** Everything the daemon printed so far (stdout and stderr). */
  output(): string;
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startDaemon(dir: string, env: Record<string, string> = {}): Promise<Daemon> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
    env: {
      ...process.env,
      API_HOST: '127.0.0.1',
      API_PORT: '0',
      HTTP_PORT: '0',
      CONFIG_PATH: join(dir, 'config.yaml'),
      // Daemons in tests never bind the engine's well-known UDP ports; tests that want audio
      // pass ENGINE=on with ports 0.
      ENGINE: 'off',
      // Nor multicast on the machine's network: discovery tests run in their own namespace.
      DISCOVERY: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (c) => {
    text += c;
  });
  child.stderr!.on('data', (c) => {
    text += c;
  });
  const urls = await new Promise<{ api: string; http: string | null }>((resolve, reject) => {
    // Killed if it does not listen within 30 s; a daemon that started lives as long as the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`daemon did not start within 30 s:\n${text}`));
    }, 30_000).unref();
    const check = () => {
      // The startup summary, complete once its last row (the API token) has arrived.
      if (!/Tributary \S+ is running[\s\S]*?API token:/.test(text)) return;
      const api = /API:\s+(https:\/\/127\.0\.0\.1:\d+)/.exec(text);
      const http = /HTTP:\s+(http:\/\/127\.0\.0\.1:\d+) redirects/.exec(text);
      if (api) {
        clearTimeout(timer);
        resolve({ api: api[1]!, http: http?.[1] ?? null });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`daemon exited with ${code} before listening:\n${text}`)),
    );
  });
  const ca = env.CERTIFICATE
    ? readFileSync(env.CERTIFICATE, 'utf8')
    : readFileSync(join(dir, 'tributary.crt'), 'utf8');
  const exited = once(child, 'exit');
  return {
    child,
    apiUrl: urls.api,
    httpUrl: urls.http,
    output: () => text,
    call(method, path, body) {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = request(
          `${urls.api}${path}`,
          {
            method,
            ca,
            headers: {
              ...(payload ? { 'content-type': 'application/json' } : {}),
              ...(env.API_TOKEN ? { authorization: `Bearer ${env.API_TOKEN}` } : {}),
            },
          },
          (res) => {
            let data = '';
            res.setEncoding('utf8');
            res.on('data', (c) => {
              data += c;
            });
            res.on('end', () => {
              let parsed: unknown = data;
              try {
                parsed = JSON.parse(data);
              } catch {}
              resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
            });
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/**
 * `startDaemon` with a certificate made beforehand (in `dir/cert/`) and given through
 * CERTIFICATE / CERTIFICATE_KEY, as a user who brings their own would.
 */
export async function startQuickDaemon(
  dir: string,
  env: Record<string, string> = {},
): Promise<Daemon> {
  const cert = await loadCertificate({
    certificatePath: null,
    certificateKeyPath: null,
    directory: join(dir, 'cert'),
  });
  return startDaemon(dir, { CERTIFICATE: cert.certPath, CERTIFICATE_KEY: cert.keyPath, ...env });
}
