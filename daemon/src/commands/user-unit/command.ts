// `tributary receive|send --install-unit [options]`, `--uninstall-unit` and `--print-unit`: the
// user unit that runs the program with those options at login (or at boot, with lingering).
// The command writes or removes the file and prints the systemctl commands to run; it runs none
// itself, so it works the same over SSH, in a build script, or without a session bus.
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { type NativeProgram, programPath } from '../native-program.js';
import type { CommandIO } from '../types.js';
import { ExecWordError } from './exec-line.js';
import { type EndpointUnit, renderUnit, unitName, userUnitDir, writtenMark } from './unit-file.js';

const ACTIONS = ['--install-unit', '--uninstall-unit', '--print-unit'] as const;
type Action = (typeof ACTIONS)[number];

export interface UnitCommand {
  readonly program: NativeProgram;
  readonly endpoint: EndpointUnit;
  /** Why these options cannot make a unit (a required option missing), or undefined. */
  readonly check?: (args: readonly string[]) => string | undefined;
}

/** The help the program's own --help is followed by. */
export function unitHelp(command: string): string {
  const unit = `tributary-${command}.service`;
  return `
Run it in the background (a systemd user service, systemctl --user):
  --install-unit [options]  write ~/.config/systemd/user/${unit} running
                            tributary ${command} with these options; prints the systemctl commands
  --uninstall-unit          remove that unit (only one this command wrote)
  --print-unit [options]    print the unit instead of writing it
`;
}

/** The action asked for and the program's own options, or undefined when none is asked. */
export function unitAction(
  argv: readonly string[],
): { action: Action; args: string[] } | undefined {
  const found = ACTIONS.filter((a) => argv.includes(a));
  if (found.length === 0) return undefined;
  if (found.length > 1) throw new ExecWordError(`choose one of ${found.join(', ')}`);
  const action = found[0]!;
  return { action, args: argv.filter((a) => a !== action) };
}

/** Writes `text` to `path` whole or not at all: a temporary file beside it, synced, renamed. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'wx', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}

function execStartOf(text: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith('ExecStart='));
}

function install(
  unit: UnitCommand,
  action: Action,
  args: string[],
  io: CommandIO,
  env: NodeJS.ProcessEnv,
): number {
  const name = `tributary ${unit.endpoint.command}`;
  const problem = unit.check?.(args);
  if (problem) {
    io.err(`${name} ${action}: ${problem}\nNothing was written.\n`);
    return 2;
  }
  const found = programPath(unit.program, env);
  if (found === undefined || !existsSync(found)) {
    io.err(
      `${name} ${action}: the program is not built (${found ?? unit.program.binary}); build it with ` +
        `\`cargo build --release -p ${unit.program.binary}\`\nNothing was written.\n`,
    );
    return 1;
  }
  let text: string;
  try {
    text = renderUnit(unit.endpoint, resolve(found), args);
  } catch (err) {
    if (!(err instanceof ExecWordError)) throw err;
    io.err(`${name} ${action}: ${err.message}\nNothing was written.\n`);
    return 2;
  }
  if (action === '--print-unit') {
    io.out(text);
    return 0;
  }
  const dir = userUnitDir(env);
  const service = unitName(unit.endpoint);
  const path = join(dir, service);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (before !== undefined && !before.startsWith(writtenMark(unit.endpoint))) {
    io.err(
      `${name} ${action}: ${path} exists and was not written by this command; ` +
        'move it away (or remove it) first.\nNothing was written.\n',
    );
    return 1;
  }
  mkdirSync(dir, { recursive: true });
  writeAtomically(path, text);
  const user = env.USER || userInfo().username;
  const lines = [
    `Wrote ${path}:`,
    `  ${execStartOf(text)}`,
    ...(before === undefined
      ? []
      : [`It replaces the unit written before, which had`, `  ${execStartOf(before)}`]),
    before === undefined
      ? 'Start it now and at every login:'
      : 'Load it and restart with the new options:',
    before === undefined
      ? `  systemctl --user daemon-reload && systemctl --user enable --now ${service}`
      : `  systemctl --user daemon-reload && systemctl --user restart ${service}`,
    ...(found.includes('/target/debug/')
      ? [
          `That is a debug build: build the release one (cargo build --release -p ${unit.program.binary})`,
          'and run this again, so the unit runs it.',
        ]
      : []),
    `Its log: journalctl --user -u ${service} -f`,
    'On a machine nobody logs in to (a headless Raspberry Pi), let it start at boot:',
    `  sudo loginctl enable-linger ${user}`,
  ];
  io.out(`${lines.join('\n')}\n`);
  return 0;
}

function uninstall(
  unit: UnitCommand,
  args: string[],
  io: CommandIO,
  env: NodeJS.ProcessEnv,
): number {
  const name = `tributary ${unit.endpoint.command} --uninstall-unit`;
  if (args.length > 0) {
    io.err(`${name}: takes no other options (got ${args.join(' ')})\n`);
    return 2;
  }
  const dir = userUnitDir(env);
  const service = unitName(unit.endpoint);
  const path = join(dir, service);
  if (!existsSync(path)) {
    io.out(`There is no ${path}: nothing to remove.\n`);
    return 0;
  }
  if (!readFileSync(path, 'utf8').startsWith(writtenMark(unit.endpoint))) {
    io.err(
      `${name}: ${path} was not written by tributary ${unit.endpoint.command}; it is left as it is.\n`,
    );
    return 1;
  }
  const removed = [path];
  // `systemctl --user enable` made this link; without the unit it would dangle.
  const wants = join(dir, 'default.target.wants', service);
  if (
    lstatExists(wants) &&
    lstatSync(wants).isSymbolicLink() &&
    resolve(dir, 'default.target.wants', readlinkSync(wants)) === path
  ) {
    rmSync(wants);
    removed.push(wants);
  }
  rmSync(path);
  io.out(
    `Removed ${removed.join(' and ')}.\nStop it and forget it:\n` +
      `  systemctl --user stop ${service}; systemctl --user daemon-reload\n`,
  );
  return 0;
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a unit action when argv asks for one; undefined when it does not (the caller then runs
 * the program). Exit codes: 0 done, 1 could not, 2 bad usage.
 */
export function runUnitAction(
  unit: UnitCommand,
  argv: readonly string[],
  io: CommandIO,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  let asked: ReturnType<typeof unitAction>;
  try {
    asked = unitAction(argv);
  } catch (err) {
    io.err(`tributary ${unit.endpoint.command}: ${(err as Error).message}\n`);
    return 2;
  }
  if (asked === undefined) return undefined;
  if (asked.action === '--uninstall-unit') return uninstall(unit, asked.args, io, env);
  return install(unit, asked.action, asked.args, io, env);
}
