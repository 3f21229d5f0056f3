// A Vite plugin that writes a .br and a .gz copy beside every text file of the build, so the
// daemon sends them compressed (@fastify/static preCompressed) without compressing per request.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Smaller files are not worth a second request header's worth of savings. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tributary-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => COMPRESSIBLE.test(file))
          .map(async (file) => {
            const path = join(outDir, file);
            const data = await readFile(path);
            if (data.length < MIN_BYTES) return;
            const [br, gzipped] = await Promise.all([
              brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gz(data, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
          }),
      );
    },
  };
}
