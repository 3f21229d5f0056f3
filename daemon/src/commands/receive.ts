// `tributary receive`: the Linux receiver (native/receive). It runs the receiver's own program,
// `tributary-receive`, with the same arguments (native-program.ts: output through, signals on,
// exit code back); with --install-unit, --uninstall-unit or --print-unit it manages the user unit
// that runs it in the background instead (user-unit/command.ts).
import { type NativeProgram, programPath, runProgram } from './native-program.js';
import { type CommandIO, processIO } from './types.js';
import { runUnitAction, type UnitCommand, unitHelp } from './user-unit/command.js';

const RECEIVER: NativeProgram = {
  command: 'receive',
  binary: 'tributary-receive',
  envVar: 'TRIBUTARY_RECEIVE_BIN',
};

const UNIT: UnitCommand = {
  program: RECEIVER,
  endpoint: {
    command: 'receive',
    description: "Tributary receiver: network audio to this session's sound server",
  },
};

/** The receiver program: TRIBUTARY_RECEIVE_BIN, else this checkout's release or debug build. */
export function receiverProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return programPath(RECEIVER, env);
}

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  const unit = runUnitAction(UNIT, argv, io);
  if (unit !== undefined) return unit;
  const status = await runProgram(RECEIVER, argv, io);
  if (status === 0 && (argv.includes('-h') || argv.includes('--help'))) io.out(unitHelp('receive'));
  return status;
}
