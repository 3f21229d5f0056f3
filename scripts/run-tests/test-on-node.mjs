#!/usr/bin/env node
// Runs Node.js of another release line on some arguments: the npm registry's `node@MAJOR`
// package, fetched (or taken from the npm cache) as `npx -p node@MAJOR` does, then started
// directly with that line's folder first on PATH, so a test's `process.execPath` and `node` are
// it too. Not through `npm exec` itself: that exports npm_config_package, and an `npx` a test
// runs would then try to install node@MAJOR instead of its own command.
//
// Usage: node scripts/run-tests/test-on-node.mjs MAJOR DIR ARG...   (runs `node ARG...` in DIR)
import { execFileSync, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [major, dir, ...args] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? '') || !dir) {
  process.stderr.write('Usage: node scripts/run-tests/test-on-node.mjs MAJOR DIR ARG...\n');
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const [node, version] = execFileSync(
  'npm',
  [
    'exec',
    '--yes',
    '--package',
    `node@${major}`,
    '--',
    'node',
    '-p',
    'process.execPath + " " + process.version',
  ],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
)
  .trim()
  .split(' ');
if (!version?.startsWith(`v${major}.`)) {
  process.stderr.write(`test-on-node: node@${major} ran ${version} (${node})\n`);
  process.exit(1);
}
process.stdout.write(`test-on-node: Node.js ${version} (${node})\n`);
const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
const child = spawn(node, args, { cwd: resolve(root, dir), stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
