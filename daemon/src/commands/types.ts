/** Where a command writes (the process's stdout/stderr, or a test's buffers). */
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CommandIO = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** A `tributary` subcommand: a module cli.ts loads only when that command runs. */
export interface CommandModule {
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[], io?: CommandIO): Promise<number>;
}
