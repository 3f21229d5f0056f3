// The one block `tributary serve` prints when it is ready: where the API is, what the audio
// engine listens on, where the configuration lives and whether a token protects it.
import type { StatsMessage } from '../schema/stats.js';
import { version } from '../version.js';

export interface StartupFacts {
  readonly apiUrl: string;
  readonly otherUrls: readonly string[];
  readonly httpUrl: string | null;
  readonly engine: StatsMessage['engine'];
  readonly configPath: string;
  readonly equalizerPath: string;
  readonly tokenSet: boolean;
}

const udp = (ports: readonly number[]) => (ports.length ? `UDP ${ports.join(', ')}` : 'none');

function engineLine(engine: StatsMessage['engine']): string {
  if (engine.state === 'off') return 'off (ENGINE=off): the API runs without audio';
  if (engine.state !== 'running') return `not running: ${engine.error ?? 'see /api/stats'}`;
  const { scream, tagged, rtp } = engine.ports;
  return (
    `Scream ${udp(scream)}; per-application Scream ${tagged === null ? 'off' : `UDP ${tagged}`}; ` +
    `RTP ${udp(rtp)}; ${kernels(engine.simd)}`
  );
}

/** The instruction set the DSP kernels use, and why it is less than the CPU's best. */
function kernels({ best, used }: StatsMessage['engine']['simd']): string {
  return `DSP kernels ${used}${used === best ? '' : ` (TRIBUTARY_SIMD; this CPU has ${best})`}`;
}

export function startupSummary(facts: StartupFacts): string {
  const rows: [string, string][] = [
    [
      'API',
      `${facts.apiUrl}${facts.otherUrls.length ? ` (also ${facts.otherUrls.join(', ')})` : ''}`,
    ],
    [
      'HTTP',
      facts.httpUrl
        ? `${facts.httpUrl} redirects to the API (MP3 streams are served there too)`
        : 'off (HTTP_PORT=off)',
    ],
    ['Engine', engineLine(facts.engine)],
    ['Config', `${facts.configPath}, ${facts.equalizerPath}`],
    [
      'API token',
      facts.tokenSet
        ? 'set: requests need it (Authorization: Bearer, or the tributary_token cookie)'
        : 'not set: anyone who reaches the API can change the configuration (API_TOKEN)',
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return [
    `Tributary ${version} is running`,
    ...rows.map(([k, v]) => `  ${`${k}:`.padEnd(width)}${v}`),
  ].join('\n');
}

/** A pino logMethod hook that drops Fastify's own "Server listening at ..." lines. */
export function dropListeningLines(
  this: unknown,
  args: Parameters<LogMethod>,
  method: LogMethod,
): void {
  const message = typeof args[0] === 'string' ? args[0] : args[1];
  if (typeof message === 'string' && message.startsWith('Server listening at ')) return;
  method.apply(this, args);
}

type LogMethod = (...args: [unknown, ...unknown[]]) => void;
