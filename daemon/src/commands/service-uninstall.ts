import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  layout,
  SERVICE,
  STATE_DIR,
  systemdRuns,
  unitPath,
  WRITTEN_MARK,
} from './service/layout.js';
import { noSystemd } from './service/messages.js';
import { systemctl } from './service/system.js';
import { type CommandIO, processIO } from './types.js';

const usage = `Usage: tributary service uninstall [--root DIR]

Stops and disables the service that tributary service install set up, removes its unit
(/etc/systemd/system/${SERVICE}, only if that command wrote it) and reloads systemd (run it as
root). It keeps ${STATE_DIR} (your configuration and certificate) and the user tributary, and
says how to remove them. The Debian package's service is removed with the package (apt remove).
  --root DIR   Work on DIR as the system's root (tests): nothing is stopped
Exit code: 0 removed (or nothing to remove), 1 could not remove, 2 bad usage.
`;

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  let root: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' }, root: { type: 'string' } },
    });
    if (values.help) {
      io.out(usage);
      return 0;
    }
    root = values.root === undefined ? '/' : resolve(values.root);
  } catch (err) {
    io.err(`tributary service uninstall: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  const where = layout(root);
  const fail = (message: string) => {
    io.err(`tributary service uninstall: ${message}\n`);
    return 1;
  };
  if (where.packaged) {
    return fail(
      'this service belongs to the Debian package: sudo apt remove tributary stops and removes ' +
        `it (apt purge tributary also deletes ${STATE_DIR})`,
    );
  }
  if (!systemdRuns(where)) {
    io.err(noSystemd('service uninstall', where));
    return 1;
  }
  if (process.getuid?.() !== 0) {
    return fail('it changes system files: run it as root (sudo npx tributary service uninstall)');
  }
  const path = unitPath(where);
  if (!existsSync(path)) {
    io.out(`No service to remove: ${path} does not exist.\n`);
    return 0;
  }
  if (!readFileSync(path, 'utf8').startsWith(WRITTEN_MARK)) {
    return fail(`${path} was not written by tributary service install: left as it is`);
  }
  const done: string[] = [];
  const steps = where.root === '/' ? [['disable', '--now', SERVICE]] : [['disable', SERVICE]];
  for (const args of steps) {
    const res = systemctl(where, ...args);
    if (!res.ok) return fail(`${res.command} failed: ${res.output}`);
    done.push(`ran ${res.command}`);
  }
  rmSync(path);
  done.push(`removed ${path}`);
  if (where.root === '/') {
    const res = systemctl(where, 'daemon-reload');
    if (!res.ok) return fail(`${res.command} failed: ${res.output}`);
    done.push(`ran ${res.command}`);
  }
  io.out(
    `Removed the Tributary service:\n${done.map((d) => `  - ${d}\n`).join('')}` +
      `Kept ${STATE_DIR} (configuration, certificate) and the user tributary; to remove them too:\n` +
      `  sudo rm -r ${STATE_DIR} && sudo userdel tributary\n`,
  );
  return 0;
}
