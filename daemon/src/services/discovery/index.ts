// The discovery service as a named Fastify service (`discovery`): started when the app is
// ready, told the API port once it listens (mDNS advertises it), stopped with the app (SAP
// deletions and mDNS goodbyes sent first).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DiscoverySettings } from '../../settings/discovery.js';
import { DiscoveryService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** SAP and mDNS: streams and devices found, announcements and advertisements sent. */
    discovery: DiscoveryService;
  }
}

export interface DiscoveryPluginOptions {
  /** DISCOVERY from the environment; null or absent: off (no socket is opened). */
  readonly settings?: DiscoverySettings | null;
  /** mDNS UDP port (5353). */
  readonly mdnsPort?: number;
}

export default fp(
  async (fastify: FastifyInstance, options: DiscoveryPluginOptions) => {
    const log = fastify.log.child({ component: 'discovery' });
    const service = new DiscoveryService(
      {
        enabled: options.settings?.enabled ?? false,
        mdnsPort: options.mdnsPort,
        enginePlaying: () => (fastify.hasDecorator('engine') ? fastify.engine.running : false),
      },
      fastify.configStore,
      {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        error: (m) => log.error(m),
        debug: (m) => log.debug(m),
      },
    );
    fastify.decorate('discovery', service);
    fastify.addHook('onReady', () => service.start());
    fastify.addHook('onListen', async () => {
      const address = fastify.server.address();
      if (typeof address === 'object' && address) await service.setApiPort(address.port);
    });
    fastify.addHook('preClose', () => service.stop());
  },
  { name: 'discovery', fastify: '5.x', dependencies: ['config-store'] },
);
