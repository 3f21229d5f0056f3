// The Linux endpoint commands (`tributary receive`, `tributary send`) run a Rust program of
// native/ with the same arguments: its output passed through, SIGTERM and SIGINT passed on, and
// its exit code returned. A program rather than the napi binding: they link libpulse, which the
// daemon's addon (on servers without a sound server) must not need, and a Rust binary is what
// `cargo test --workspace` builds in CI anyway, with no second 20-minute binding build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandIO } from './types.js';

const checkout = fileURLToPath(new URL('../../../', import.meta.url));

/** One command's program: its cargo package (also the binary's name) and the variable naming it. */
export interface NativeProgram {
  /** `receive`, `send`: the word after `tributary`. */
  readonly command: string;
  /** `tributary-receive`: the cargo package and its binary. */
  readonly binary: string;
  /** `TRIBUTARY_RECEIVE_BIN`: a path that overrides the checkout's build. */
  readonly envVar: string;
}

/** The program: its variable, else this checkout's release or debug build. */
export function programPath(
  program: NativeProgram,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const given = env[program.envVar];
  if (given) return given;
  return ['release', 'debug']
    .map((profile) => join(checkout, 'target', profile, program.binary))
    .find((path) => existsSync(path));
}

/** Runs the program with `argv`; resolves to its exit code (128 + the signal's if one ended it). */
export async function runProgram(
  program: NativeProgram,
  argv: string[],
  io: CommandIO,
): Promise<number> {
  const path = programPath(program);
  const name = `tributary ${program.command}`;
  if (path === undefined) {
    io.err(
      `${name}: the program is not built; build it with \`cargo build --release -p ${program.binary}\` in ${checkout}\n`,
    );
    return 1;
  }
  const child = spawn(path, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => io.out(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => io.err(chunk.toString()));
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const onTerm = forward('SIGTERM');
  const onInt = forward('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    return await new Promise<number>((resolve) => {
      child.on('error', (err) => {
        io.err(`${name}: cannot run ${path}: ${err.message}\n`);
        resolve(1);
      });
      child.on('close', (code, signal) => {
        resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15));
      });
    });
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}
