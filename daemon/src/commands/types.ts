/** A `tributary` subcommand: a module cli.ts loads only when that command runs. */
export interface CommandModule {
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}
