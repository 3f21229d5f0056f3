// `tributary send`: the Linux sender (native/send). It runs the sender's own program,
// `tributary-send`, with the same arguments (native-program.ts: output through, signals on,
// exit code back); with --install-unit, --uninstall-unit or --print-unit it manages the user unit
// that runs it in the background instead (user-unit/command.ts).
import { type NativeProgram, programPath, runProgram } from './native-program.js';
import { type CommandIO, processIO } from './types.js';
import { runUnitAction, type UnitCommand, unitHelp } from './user-unit/command.js';

const SENDER: NativeProgram = {
  command: 'send',
  binary: 'tributary-send',
  envVar: 'TRIBUTARY_SEND_BIN',
};

const UNIT: UnitCommand = {
  program: SENDER,
  endpoint: {
    command: 'send',
    description: "Tributary sender: this session's audio to the Tributary server",
  },
  check: (args) =>
    args.includes('-h') || args.includes('--host')
      ? undefined
      : '-h HOST: the Tributary server to send to is required',
};

/** The sender program: TRIBUTARY_SEND_BIN, else this checkout's release or debug build. */
export function senderProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return programPath(SENDER, env);
}

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  const unit = runUnitAction(UNIT, argv, io);
  if (unit !== undefined) return unit;
  const status = await runProgram(SENDER, argv, io);
  if (status === 0 && argv.includes('--help')) io.out(unitHelp('send'));
  return status;
}
