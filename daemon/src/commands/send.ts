// `tributary send`: the Linux sender (native/send). It runs the sender's own program,
// `tributary-send`, with the same arguments (native-program.ts: output through, signals on,
// exit code back).
import { type NativeProgram, programPath, runProgram } from './native-program.js';
import { type CommandIO, processIO } from './types.js';

const SENDER: NativeProgram = {
  command: 'send',
  binary: 'tributary-send',
  envVar: 'TRIBUTARY_SEND_BIN',
};

/** The sender program: TRIBUTARY_SEND_BIN, else this checkout's release or debug build. */
export function senderProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return programPath(SENDER, env);
}

export function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  return runProgram(SENDER, argv, io);
}
