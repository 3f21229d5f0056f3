// `npm run serve -w site`: serves site/out (SITE_BASE_PATH honoured) until Ctrl+C.
import { normaliseBasePath } from '../../lib/base-path';
import { outDir } from './site';
import { serveStatic } from './static-server';

const server = await serveStatic({
  root: outDir,
  basePath: normaliseBasePath(process.env.SITE_BASE_PATH),
});
console.log(`serving ${outDir} at ${server.url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
