// The only file that listens: HTTPS for the API on API_PORT, plain HTTP on HTTP_PORT that
// redirects to it (MP3 streams aside, which it serves: http/redirect.ts).
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { app, fastifyOptions } from './app.js';
import { withoutToken } from './http/auth.js';
import { certificateNames, loadCertificate } from './http/certificate.js';
import { redirectHandler } from './http/redirect.js';
import { dropListeningLines, startupSummary } from './http/startup-summary.js';
import { prettyDestination } from './log-format.js';
import type { Settings } from './settings/index.js';

export interface RunningServer {
  readonly fastify: FastifyInstance;
  /** https://host:port of the API. */
  readonly apiUrl: string;
  /** http://host:port of the redirect, or null when HTTP_PORT is off. */
  readonly httpUrl: string | null;
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly settings: Settings;
  /** UDP port of media commands (tests only; 9999 otherwise). */
  readonly mediaCommandPort?: number;
}

/** The port setting itself, or for 'auto' `preferred` if it can be bound now, else `fallback`. */
async function choosePort(
  host: string,
  setting: number | 'auto',
  preferred: number,
  fallback: number,
  name: string,
  log: { info(msg: string): void },
): Promise<number> {
  if (setting !== 'auto') return setting;
  const picked = await pickPort(host, preferred, fallback);
  if (picked.why) {
    log.info(
      `port ${preferred} is not available (${picked.why}); using ${fallback} (set ${name} to choose)`,
    );
  }
  return picked.port;
}

/** Resolves to `preferred` if it can be bound on `host` now, else to `fallback`. */
function pickPort(
  host: string,
  preferred: number,
  fallback: number,
): Promise<{ port: number; why?: string }> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      resolve({ port: fallback, why: err.code ?? err.message }),
    );
    probe.listen({ host, port: preferred, exclusive: true }, () =>
      probe.close(() => resolve({ port: preferred })),
    );
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Addresses other devices can use, for the startup log when bound to every interface. */
function lanAddresses(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && (i.family === 'IPv4' || host === '::'))
    .map((i) => (i!.family === 'IPv6' ? `[${i!.address}]` : i!.address));
}

/** Builds the app on an HTTPS Fastify instance, listens, and starts the HTTP redirect. */
export async function serve({ settings, mediaCommandPort }: ServeOptions): Promise<RunningServer> {
  const certificate = await loadCertificate({
    certificatePath: settings.certificatePath,
    certificateKeyPath: settings.certificateKeyPath,
    directory: dirname(settings.configPath),
  });
  const fastify = Fastify({
    ...fastifyOptions,
    https: { cert: certificate.cert, key: certificate.key },
    logger: {
      level: settings.logLevel,
      // Fastify's own "Server listening at ..." lines repeat what the startup summary says.
      hooks: { logMethod: dropListeningLines },
      // A stream URL may carry API_TOKEN as `?token=`: never written to the log.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: withoutToken(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      ...(settings.logFormat === 'pretty' || (settings.logFormat === 'auto' && process.stdout.isTTY)
        ? { stream: prettyDestination(process.stdout) }
        : {}),
    },
  });
  const log = fastify.log;
  if (certificate.generated) {
    log.info(
      `generated a self-signed certificate (ECDSA P-256, valid until ${certificate.validTo.toISOString().slice(0, 10)}): ` +
        `${certificate.certPath}; browsers warn about it once`,
    );
  }
  try {
    await fastify.register(app, {
      configPath: settings.configPath,
      equalizerPath: settings.equalizerPath,
      reloadTimeoutMs: settings.reloadTimeoutMs,
      apiToken: settings.apiToken,
      // Names browsers may use besides the machine's own: ALLOWED_HOSTS and the certificate's.
      allowedHosts: [...settings.allowedHosts, ...certificateNames(certificate.cert)],
      // The audio engine (ENGINE, SCREAM_PORTS, RTP_PORTS, ...; null: ENGINE=off, no audio).
      engine: settings.engine,
      // SAP and mDNS (DISCOVERY=off opens no socket).
      discovery: settings.discovery,
      // Product plugins (PLUGINS_DIRECTORY) and the play-URL folder (PLAYURL_DIRECTORY).
      plugins: {
        directory: settings.plugins.directory,
        playUrl: { directory: settings.plugins.playUrlDirectory },
      },
      ...(mediaCommandPort === undefined ? {} : { mediaCommandPort }),
    });
    await fastify.ready();
  } catch (err) {
    await fastify.close().catch(() => {});
    throw err;
  }

  let boundApi: number;
  let redirect: Server | null = null;
  let httpUrl: string | null = null;
  try {
    const apiPort = await choosePort(settings.host, settings.apiPort, 443, 8443, 'API_PORT', log);
    await fastify.listen({ host: settings.host, port: apiPort });
    const address = fastify.server.address();
    boundApi = typeof address === 'object' && address ? address.port : apiPort;
    if (settings.httpPort !== null) {
      const httpPort = await choosePort(
        settings.host,
        settings.httpPort,
        80,
        8080,
        'HTTP_PORT',
        log,
      );
      const server = createServer(redirectHandler(fastify, boundApi));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: settings.host, port: httpPort }, () => resolve());
      });
      redirect = server;
      const httpAddress = redirect.address();
      const boundHttp =
        typeof httpAddress === 'object' && httpAddress ? httpAddress.port : httpPort;
      httpUrl = `http://${urlHost(settings.host)}:${boundHttp}`;
    }
  } catch (err) {
    // A port taken after the app started (its engine, discovery sockets and timers): stop all
    // of it, or the process would stay up with nothing listening (a unit that never restarts).
    await fastify.close().catch(() => {});
    throw err;
  }
  const apiUrl = `https://${urlHost(settings.host)}:${boundApi}`;

  const others = lanAddresses(settings.host).map((a) => `https://${a}:${boundApi}`);
  const engine = fastify.engine.stats().engine;
  const summary = startupSummary({
    apiUrl,
    otherUrls: others,
    httpUrl,
    engine,
    configPath: settings.configPath,
    equalizerPath: settings.equalizerPath,
    tokenSet: settings.apiToken !== undefined,
  });
  log.info(summary);

  return {
    fastify,
    apiUrl,
    httpUrl,
    async close() {
      // The HTTP port stops accepting first; its stream listeners end with the app's hubs.
      const closed = new Promise<void>((resolve) =>
        redirect ? redirect.close(() => resolve()) : resolve(),
      );
      await fastify.close();
      redirect?.closeAllConnections();
      await closed;
    },
  };
}
