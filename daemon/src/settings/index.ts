// The daemon's settings, read from the environment once, with a clear error for a bad value:
// the API's own and the audio engine's (engine.ts), so a bad value anywhere stops
// `tributary serve` the same way before it starts anything.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isAddress } from '../schema/address.js';
import { type DiscoverySettings, readDiscoverySettings } from './discovery.js';
import { type EngineSettings, readEngineSettings } from './engine.js';
import { SettingsError } from './errors.js';
import { readAllowedHosts } from './hosts.js';

export type { EngineSettings } from './engine.js';
export { readEngineSettings } from './engine.js';
export { SettingsError } from './errors.js';

export interface Settings {
  /** API_HOST: address to bind (default 0.0.0.0, every IPv4 interface). */
  readonly host: string;
  /** API_PORT: HTTPS port; 'auto' tries 443 and falls back to 8443. */
  readonly apiPort: number | 'auto';
  /** HTTP_PORT: plain-HTTP redirect port; 'auto' tries 80 then 8080; null disables it. */
  readonly httpPort: number | 'auto' | null;
  /** CONFIG_PATH: config.yaml. */
  readonly configPath: string;
  /** EQUALIZER_CONFIG_PATH: equalizers.yaml (default beside config.yaml). */
  readonly equalizerPath: string;
  /** CONFIGURATION_RELOAD_TIMEOUT (seconds in the environment), in ms. */
  readonly reloadTimeoutMs: number;
  /** CERTIFICATE and CERTIFICATE_KEY (PEM files); both unset: a generated self-signed pair. */
  readonly certificatePath: string | null;
  readonly certificateKeyPath: string | null;
  /** API_TOKEN: when set, every request must carry it. */
  readonly apiToken: string | undefined;
  /** ALLOWED_HOSTS: names the Host header may give besides the machine's own (settings/hosts.ts). */
  readonly allowedHosts: readonly string[];
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace. */
  readonly logLevel: string;
  /** LOG_FORMAT: auto (default: readable on a terminal, else JSON), json, pretty. */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /**
   * The audio engine: ENGINE, ENGINE_BIND, SCREAM_PORTS, SCREAM_TAGGED_PORT, RTP_PORTS,
   * MULTICAST_GROUPS, JITTER_BUFFER, JITTER_MIN_MS, JITTER_MAX_MS. Null when ENGINE=off.
   */
  readonly engine: EngineSettings | null;
  /** DISCOVERY: SAP and mDNS on (default) or off (no socket opened, whatever the config says). */
  readonly discovery: DiscoverySettings;
  /**
   * PLUGINS_DIRECTORY: a folder of product plugins (`*.js`, `*.mjs`) loaded at start; null:
   * built-ins only. PLAYURL_DIRECTORY: the only folder file: URLs may play from; null: none.
   */
  readonly plugins: { directory: string | null; playUrlDirectory: string | null };
}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, auto: boolean): number | 'auto' | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || (auto && raw === 'auto')) return 'auto';
  if (name === 'HTTP_PORT' && (raw === 'off' || raw === 'none')) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new SettingsError(
      `${name} must be an integer 0-65535${name === 'HTTP_PORT' ? " or 'off'" : ''}, got '${raw}'`,
    );
  }
  return n;
}

/** The default directory for config.yaml and equalizers.yaml: $XDG_CONFIG_HOME/tributary or ~/.config/tributary. */
export function defaultConfigDir(env: Env = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'tributary');
}

/** The daemon's two files: CONFIG_PATH (or the default) and EQUALIZER_CONFIG_PATH (or beside it). */
export function configPaths(env: Env = process.env): { configPath: string; equalizerPath: string } {
  const configPath = resolve(env.CONFIG_PATH || join(defaultConfigDir(env), 'config.yaml'));
  const equalizerPath = resolve(
    env.EQUALIZER_CONFIG_PATH || join(dirname(configPath), 'equalizers.yaml'),
  );
  return { configPath, equalizerPath };
}

export function readSettings(env: Env = process.env): Settings {
  const { configPath, equalizerPath } = configPaths(env);
  const reloadRaw = env.CONFIGURATION_RELOAD_TIMEOUT?.trim() || '3';
  const reloadSeconds = Number(reloadRaw);
  if (!Number.isFinite(reloadSeconds) || reloadSeconds < 0.05 || reloadSeconds > 3600) {
    throw new SettingsError(
      `CONFIGURATION_RELOAD_TIMEOUT must be a number of seconds from 0.05 to 3600, got '${reloadRaw}'`,
    );
  }
  const cert = env.CERTIFICATE?.trim() || null;
  const key = env.CERTIFICATE_KEY?.trim() || null;
  if ((cert === null) !== (key === null)) {
    throw new SettingsError(
      'CERTIFICATE and CERTIFICATE_KEY must be set together (or neither, for a generated one)',
    );
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new SettingsError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got '${logLevel}'`,
    );
  }
  const logFormat = env.LOG_FORMAT?.trim() || 'auto';
  if (logFormat !== 'auto' && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new SettingsError(`LOG_FORMAT must be auto, json or pretty, got '${logFormat}'`);
  }
  const engine = readEngineSettings(env);
  if (engine && !isAddress(engine.bind)) {
    throw new SettingsError(
      `ENGINE_BIND must be an IP address of this machine (0.0.0.0 for every interface), got '${engine.bind}'`,
    );
  }
  return {
    host: env.API_HOST?.trim() || '0.0.0.0',
    apiPort: port(env, 'API_PORT', true) as number | 'auto',
    httpPort: port(env, 'HTTP_PORT', true),
    configPath,
    equalizerPath,
    reloadTimeoutMs: Math.round(reloadSeconds * 1000),
    certificatePath: cert && resolve(cert),
    certificateKeyPath: key && resolve(key),
    apiToken: env.API_TOKEN || undefined,
    allowedHosts: readAllowedHosts(env),
    logLevel,
    logFormat,
    engine,
    discovery: readDiscoverySettings(env),
    plugins: {
      directory: env.PLUGINS_DIRECTORY?.trim() ? resolve(env.PLUGINS_DIRECTORY.trim()) : null,
      playUrlDirectory: env.PLAYURL_DIRECTORY?.trim()
        ? resolve(env.PLAYURL_DIRECTORY.trim())
        : null,
    },
  };
}
