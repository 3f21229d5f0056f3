import { parseArgs } from 'node:util';
import { engineLimits } from '@tributary/native';
import { ConfigFileError } from '../config/documents.js';
import { serve } from '../server.js';
import { readSettings, SettingsError } from '../settings/index.js';
import { type CommandIO, processIO } from './types.js';

const limits = engineLimits();
const jitter = `${limits.jitterMinMs}-${limits.jitterMaxMs} ms`;

const usage = `Usage: tributary serve

Runs the daemon until SIGINT or SIGTERM: the HTTPS API, the configuration store and the audio
engine, which plays what the configuration routes. SIGHUP re-reads config.yaml and
equalizers.yaml at once. A bad value in any variable below stops it with a message naming it.

Environment:
  API_HOST                      Address to bind (default 0.0.0.0)
  API_PORT                      HTTPS port (default 443 when it can be bound, else 8443)
  HTTP_PORT                     Port that redirects HTTP to HTTPS (default 80, else 8080; off to disable)
  CERTIFICATE, CERTIFICATE_KEY  PEM certificate and key (default: a self-signed pair, ECDSA P-256,
                                365 days, generated beside config.yaml on first start)
  CONFIG_PATH                   config.yaml (default $XDG_CONFIG_HOME/tributary/config.yaml,
                                XDG_CONFIG_HOME defaulting to ~/.config)
  EQUALIZER_CONFIG_PATH         equalizers.yaml (default beside config.yaml)
  CONFIGURATION_RELOAD_TIMEOUT  Seconds after a hand edit before the file is reloaded (default 3)
  API_TOKEN                     Require this token on every request (Bearer header or cookie
                                tributary_token); unset: the API is open
  ALLOWED_HOSTS                 Names (or addresses) browsers may reach the server by besides its
                                own (its addresses, localhost, host name, HOST.local), comma-
                                separated; a request naming another host gets 421
  LOG_LEVEL                     fatal, error, warn, info (default), debug, trace, silent
  LOG_FORMAT                    auto (default: readable lines on a terminal, else JSON lines),
                                json, or pretty
  DISCOVERY                     on (default): SAP and mDNS as config.yaml's sap and mdns
                                sections say; off opens no discovery socket (Docker bridge mode)
  PLUGINS_DIRECTORY             A folder of plugins (*.js, *.mjs) loaded at start (default none)
  PLAYURL_DIRECTORY             The only folder file: URLs may play from (default none)

Audio engine (ports are comma-separated lists; off for none):
  ENGINE                        on (default), or off to run the API without audio
  ENGINE_BIND                   Address the audio receivers bind (default 0.0.0.0)
  SCREAM_PORTS                  Scream UDP ports (default ${limits.defaultScreamPorts.join(',')})
  SCREAM_TAGGED_PORT            Per-application (tagged) Scream UDP port (default ${limits.defaultTaggedPort})
  RTP_PORTS                     RTP ports always listened on (default ${limits.defaultRtpPorts.join(',')}), besides each RTP
                                source's own port; RTCP on port + 1
  MULTICAST_GROUPS              IPv4 multicast groups every receiver joins (default none)
  JITTER_BUFFER                 adaptive (default) or fixed
  JITTER_MIN_MS                 The fixed buffer, or the adaptive floor: ${jitter} (default ${limits.defaultJitterMinMs})
  JITTER_MAX_MS                 The adaptive ceiling: ${jitter} (default ${limits.defaultJitterMaxMs})
  WEBRTC_ADDRESSES              Addresses WebRTC listening binds and announces (default ENGINE_BIND
                                when it is one address, else every interface's)
  WEBRTC_PORT                   UDP port of WebRTC listening (default 0: one the system picks)
  TRIBUTARY_SIMD                Run the DSP kernels as a lesser CPU would: sse2, avx2 or avx512
                                (default: this CPU's best; never more than it has)
`;

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.out(usage);
      return 0;
    }
  } catch (err) {
    io.err(`tributary serve: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  let server: Awaited<ReturnType<typeof serve>>;
  try {
    server = await serve({ settings: readSettings() });
  } catch (err) {
    if (err instanceof SettingsError) {
      io.err(`tributary serve: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ConfigFileError) {
      io.err(
        `tributary serve: refusing to start: ${err.message}\nThe file was not changed. Fix it, or check it with: tributary config check ${err.file}\n`,
      );
      return 1;
    }
    io.err(`tributary serve: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  // SIGHUP (systemctl reload): re-read the files now instead of waiting for the reload timeout.
  process.on('SIGHUP', () => {
    server.fastify.log.info('SIGHUP: reloading the configuration files');
    server.fastify.configStore.reload().catch(() => {});
  });
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  server.fastify.log.info(`${signal}: shutting down`);
  try {
    await server.close();
    // Nothing may keep a stopping daemon alive (a lingering socket, a native thread).
    process.exit(0);
  } catch (err) {
    io.err(`tributary serve: shutdown failed: ${(err as Error).message}\n`);
    return 1;
  }
}
