// `tributary receive`: the Linux receiver (native/receive). It runs the receiver's own program,
// `tributary-receive`, with the same arguments (native-program.ts: output through, signals on,
// exit code back).
import { type NativeProgram, programPath, runProgram } from './native-program.js';
import { type CommandIO, processIO } from './types.js';

const RECEIVER: NativeProgram = {
  command: 'receive',
  binary: 'tributary-receive',
  envVar: 'TRIBUTARY_RECEIVE_BIN',
};

/** The receiver program: TRIBUTARY_RECEIVE_BIN, else this checkout's release or debug build. */
export function receiverProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return programPath(RECEIVER, env);
}

export function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  return runProgram(RECEIVER, argv, io);
}
