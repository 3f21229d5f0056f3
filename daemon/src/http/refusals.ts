// The refusals of the HTTP guards (Host check, cross-site check, VNC greeting), counted for
// /api/stats and logged at a bounded rate: a page that keeps trying, or a name missing from
// ALLOWED_HOSTS, shows in the log a few times a minute, not once per request.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RefusalKind, RefusalStats } from '../schema/refusals.js';
import { RateLimitedLog } from '../services/discovery/log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the HTTP guards refused: counters for /api/stats, and the log. */
    refusals: Refusals;
  }
}

/** Log lines per kind of refusal and minute (then one line saying how many were held back). */
const LOG_BURST = 5;

export class Refusals {
  readonly #counts: Record<RefusalKind, number> = {
    unknown_host: 0,
    cross_site: 0,
    vnc_not_rfb: 0,
  };
  readonly #logs: Record<RefusalKind, RateLimitedLog>;
  #last: RefusalStats['last'] = null;

  constructor(warn: (message: string) => void) {
    const log = () => new RateLimitedLog(warn, LOG_BURST);
    this.#logs = { unknown_host: log(), cross_site: log(), vnc_not_rfb: log() };
  }

  /** Counts one refusal and logs `message` (within the bound). */
  count(kind: RefusalKind, message: string): void {
    this.#counts[kind] += 1;
    this.#last = { kind, message, at: new Date().toISOString() };
    this.#logs[kind].write(message);
  }

  stats(): RefusalStats {
    return { ...this.#counts, last: this.#last };
  }
}

export default fp(
  async (fastify: FastifyInstance) => {
    const log = fastify.log.child({ component: 'http' });
    fastify.decorate('refusals', new Refusals((m) => log.warn(m)));
  },
  { name: 'refusals' },
);
