// Builds the dashboard into dist/, which the daemon serves at `/` (daemon/src/plugins/dashboard.ts).
// `npm run dev -w daemon/dashboard` serves it with hot reload and sends API calls to a running
// daemon (TRIBUTARY_URL, default https://127.0.0.1:8443).
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { precompress } from './build/precompress';

const daemon = process.env.TRIBUTARY_URL ?? 'https://127.0.0.1:8443';
const api: ProxyOptions = { target: daemon, secure: false, changeOrigin: true };
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
  },
  server: {
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, api])),
      '/ws': { ...api, ws: true },
    },
  },
});
