// The audio engine's settings, read from the environment once, with a clear error for a bad
// value (the same SettingsError the daemon's other settings use). Ranges and defaults are the
// engine's own (`engineLimits()`), not copies.
import { isIP } from 'node:net';
import { engineLimits } from '@tributary/native';
import { SettingsError } from './errors.js';

const limits = engineLimits();

/** What `new Engine()` is given (the napi binding's EngineOptions). */
export interface EngineSettings {
  /** ENGINE_BIND: address the receivers bind (default 0.0.0.0). */
  readonly bind: string;
  /** SCREAM_PORTS: plain Scream UDP ports (default: the engine's, 4010,16401). */
  readonly screamPorts: number[];
  /** SCREAM_TAGGED_PORT: per-application Scream port (default 16402); null when 'off'. */
  readonly taggedPort: number | null;
  /** RTP_PORTS: RTP ports always listened on (default 40000; RTCP on each port + 1). */
  readonly rtpPorts: number[];
  /** MULTICAST_GROUPS: IPv4 multicast groups every receiver joins (default none). */
  readonly multicastGroups: string[];
  /** JITTER_BUFFER: adaptive (default) or fixed. */
  readonly jitterAdaptive: boolean;
  /** JITTER_MIN_MS (20-200, default 20): the fixed size, or the adaptive floor. */
  readonly jitterMinMs: number;
  /** JITTER_MAX_MS (20-200, default 200): the adaptive ceiling. */
  readonly jitterMaxMs: number;
  /**
   * WEBRTC_ADDRESSES: addresses WebRTC listening's UDP sockets bind and announce as host
   * candidates (default: ENGINE_BIND when it is one address, else every interface's).
   */
  readonly webrtcAddresses: string[];
  /** WEBRTC_PORT: their UDP port (default 0: one the system picks). */
  readonly webrtcPort: number;
}

type Env = Record<string, string | undefined>;

function ports(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw === 'off' || raw === 'none') return [];
  return raw.split(',').map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      throw new SettingsError(
        `${name} must be comma-separated ports 0-65535 or 'off', got '${raw}'`,
      );
    }
    return n;
  });
}

function ms(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  const { jitterMinMs: min, jitterMaxMs: max } = limits;
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new SettingsError(
      `${name} must be a number of milliseconds from ${min} to ${max}, got '${raw}'`,
    );
  }
  return n;
}

/** The engine's settings, or null when ENGINE=off (the API runs without audio). */
export function readEngineSettings(env: Env = process.env): EngineSettings | null {
  const engine = env.ENGINE?.trim() || 'on';
  if (engine === 'off') return null;
  if (engine !== 'on') throw new SettingsError(`ENGINE must be 'on' or 'off', got '${engine}'`);
  const tagged = ports(env, 'SCREAM_TAGGED_PORT', [limits.defaultTaggedPort]);
  if (tagged.length > 1) {
    throw new SettingsError(
      `SCREAM_TAGGED_PORT takes one port or 'off', got '${env.SCREAM_TAGGED_PORT}'`,
    );
  }
  const mode = env.JITTER_BUFFER?.trim() || 'adaptive';
  if (mode !== 'adaptive' && mode !== 'fixed') {
    throw new SettingsError(`JITTER_BUFFER must be 'adaptive' or 'fixed', got '${mode}'`);
  }
  const jitterMinMs = ms(env, 'JITTER_MIN_MS', limits.defaultJitterMinMs);
  const jitterMaxMs = ms(env, 'JITTER_MAX_MS', limits.defaultJitterMaxMs);
  if (jitterMinMs > jitterMaxMs) {
    throw new SettingsError(
      `JITTER_MIN_MS (${jitterMinMs}) must not exceed JITTER_MAX_MS (${jitterMaxMs})`,
    );
  }
  const groups = (env.MULTICAST_GROUPS?.trim() || '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  for (const g of groups) {
    const first = Number(g.split('.')[0]);
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(g) || first < 224 || first > 239) {
      throw new SettingsError(`MULTICAST_GROUPS must list IPv4 multicast addresses, got '${g}'`);
    }
  }
  const bind = env.ENGINE_BIND?.trim() || '0.0.0.0';
  const webrtcAddresses = (env.WEBRTC_ADDRESSES?.trim() || '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (webrtcAddresses.some((a) => isIP(a) === 0)) {
    throw new SettingsError(
      `WEBRTC_ADDRESSES must list IP addresses of this machine, got '${env.WEBRTC_ADDRESSES}'`,
    );
  }
  if (webrtcAddresses.length === 0 && bind !== '0.0.0.0' && bind !== '::') {
    webrtcAddresses.push(bind);
  }
  const webrtcPort = ports(env, 'WEBRTC_PORT', [0]);
  if (webrtcPort.length !== 1) {
    throw new SettingsError(`WEBRTC_PORT takes one port, got '${env.WEBRTC_PORT}'`);
  }
  return {
    bind,
    webrtcAddresses,
    webrtcPort: webrtcPort[0] ?? 0,
    screamPorts: ports(env, 'SCREAM_PORTS', limits.defaultScreamPorts),
    taggedPort: tagged[0] ?? null,
    rtpPorts: ports(env, 'RTP_PORTS', limits.defaultRtpPorts),
    multicastGroups: groups,
    jitterAdaptive: mode === 'adaptive',
    jitterMinMs,
    jitterMaxMs,
  };
}
