// `tributary receive`: the Linux receiver (native/receive). It runs the receiver's own program,
// `tributary-receive`, with the same arguments, its output passed through, SIGTERM and SIGINT
// passed on, and its exit code returned. A program rather than the napi binding: the receiver
// links libpulse, which the daemon's addon (on servers without a sound server) must not need,
// and a Rust binary is what `cargo test --workspace` builds in CI anyway, with no second
// 20-minute binding build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CommandIO, processIO } from './types.js';

const checkout = fileURLToPath(new URL('../../../', import.meta.url));

const BUILD = 'cargo build --release -p tributary-receive';

/** The receiver program: TRIBUTARY_RECEIVE_BIN, else this checkout's release or debug build. */
export function receiverProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TRIBUTARY_RECEIVE_BIN) return env.TRIBUTARY_RECEIVE_BIN;
  return ['release', 'debug']
    .map((profile) => join(checkout, 'target', profile, 'tributary-receive'))
    .find((path) => existsSync(path));
}

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  const program = receiverProgram();
  if (program === undefined) {
    io.err(
      `tributary receive: the receiver is not built; build it with \`${BUILD}\` in ${checkout}\n`,
    );
    return 1;
  }
  const child = spawn(program, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
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
        io.err(`tributary receive: cannot run ${program}: ${err.message}\n`);
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
