// Builds the dashboard into dist/, which the daemon serves at `/` (daemon/src/plugins/dashboard.ts).
// `npm run dev -w daemon/dashboard` serves it with hot reload and sends API calls to a running
// daemon (TRIBUTARY_URL, default https://127.0.0.1:8443).
import type { ClientRequest, IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { firstLoadChunk } from './build/first-load-chunk';
import { precompress } from './build/precompress';

const daemon = process.env.TRIBUTARY_URL ?? 'https://127.0.0.1:8443';
/**
 * The dev server's own pages are the dashboard's: the daemon takes their changes and WebSockets
 * only from its own origin (daemon/src/http/cross-site.ts), so their Origin becomes the daemon's,
 * as the Host does (changeOrigin). Other pages' requests keep theirs and stay refused.
 */
const ownOrigin = (proxyReq: ClientRequest, req: IncomingMessage) => {
  if (req.headers.origin === `http://${req.headers.host}`) {
    proxyReq.setHeader('origin', new URL(daemon).origin);
  }
};
const api: ProxyOptions = {
  target: daemon,
  secure: false,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', ownOrigin);
    proxy.on('proxyReqWs', ownOrigin);
  },
};
const API_PREFIXES = [
  '/api',
  '/sinks',
  '/sources',
  '/routes',
  '/equalizers',
  '/stream',
  '/plugins',
];

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // The first load in one file (build/first-load-chunk.ts).
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: firstLoadChunk() }] } },
    },
  },
  server: {
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, api])),
      '/ws': { ...api, ws: true },
    },
  },
});
