#!/usr/bin/env node
// The `tributary` command as npm links it (`npx tributary ...` from the repository). The program
// is compiled to dist/ by `npm start` or `npm run build`; this committed launcher exists before
// that, so npm can link the command on a fresh clone, and says what to do when dist/ is missing.
import { existsSync } from 'node:fs';

const program = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(program)) {
  process.stderr.write(
    'tributary: the daemon is not built yet. Run `npm start` (or `npm run build`) in the repository first.\n',
  );
  process.exit(1);
}
const { main } = await import(program.href);
process.exitCode = await main(process.argv.slice(2));
