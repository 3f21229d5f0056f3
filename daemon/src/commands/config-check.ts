import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { ConfigFileError, parseConfigText, parseEqualizersText } from '../config/documents.js';
import type { Problem } from '../schema/problem.js';
import { configPaths } from '../settings/index.js';
import { type CommandIO, processIO } from './types.js';

const usage = `Usage: tributary config check [--kind config|equalizers] [FILE...]

Without FILE, checks the daemon's own files: CONFIG_PATH (default
~/.config/tributary/config.yaml, or under $XDG_CONFIG_HOME) and EQUALIZER_CONFIG_PATH (default
equalizers.yaml beside it), and says which it read; one not written yet is no problem (the daemon
writes it on first start).
Validates each file as the daemon would load it and prints every problem with its path inside
the file (e.g. sinks[2].volume), the rule and the value. A file whose top level has only
"equalizers" is checked as equalizers.yaml, anything else as config.yaml, unless --kind says.
Names that break the rule of names (a "/", a control character, a lone surrogate, "." or
"..", ...) are listed with how to reach and rename their entry: the daemon loads such a file,
but the API refuses those names and a URL cannot carry them.
Exit code: 0 all valid, 1 a file is invalid or has names to fix, 2 a file cannot be read or bad
usage.
`;

type Kind = 'config' | 'equalizers';

function guessKind(text: string, file: string): Kind {
  if (basename(file).startsWith('equalizers')) return 'equalizers';
  try {
    const data = parse(text) as Record<string, unknown> | null;
    if (
      data &&
      typeof data === 'object' &&
      'equalizers' in data &&
      !('sinks' in data || 'sources' in data || 'routes' in data)
    ) {
      return 'equalizers';
    }
  } catch {
    // Syntax errors are reported by the real parse below.
  }
  return 'config';
}

/** The daemon's own files, for a check without FILE; prints which, and skips a missing one. */
function daemonFiles(io: CommandIO, env: NodeJS.ProcessEnv): Array<[string, Kind]> {
  const { configPath, equalizerPath } = configPaths(env);
  const why = env.CONFIG_PATH ? 'CONFIG_PATH' : 'the default; set CONFIG_PATH to check another';
  io.out(`Checking the daemon's configuration: ${configPath} (${why})\n`);
  const files: Array<[string, Kind]> = [];
  for (const [file, kind] of [
    [configPath, 'config'],
    [equalizerPath, 'equalizers'],
  ] as const) {
    if (existsSync(file)) files.push([file, kind]);
    else
      io.out(`${file}: not written yet (the daemon writes it with its defaults on first start)\n`);
  }
  return files;
}

export async function run(
  argv: string[],
  io: CommandIO = processIO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let files: Array<[string, Kind | undefined]>;
  let forced: Kind | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' }, kind: { type: 'string' } },
    });
    if (values.help) {
      io.out(usage);
      return 0;
    }
    if (values.kind !== undefined && values.kind !== 'config' && values.kind !== 'equalizers') {
      throw new Error(`--kind must be config or equalizers, got '${values.kind}'`);
    }
    forced = values.kind as Kind | undefined;
    files = positionals.map((file) => [file, undefined]);
  } catch (err) {
    io.err(`tributary config check: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  if (files.length === 0) files = daemonFiles(io, env);
  let code = 0;
  for (const [file, own] of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      io.err(`${file}: cannot read: ${(err as Error).message}\n`);
      code = 2;
      continue;
    }
    const kind = own ?? forced ?? guessKind(text, file);
    try {
      let names: Problem[];
      if (kind === 'equalizers') {
        const parsed = parseEqualizersText(text, file);
        names = parsed.names;
        io.out(`${file}: valid equalizers file (${parsed.value.equalizers.length} presets)\n`);
      } else {
        const { value, names: found } = parseConfigText(text, file);
        names = found;
        io.out(
          `${file}: valid config file (${value.sinks.length} sinks, ${value.sources.length} sources, ${value.routes.length} routes)\n`,
        );
      }
      if (names.length > 0) {
        const n = names.length;
        io.out(
          `${file}: ${n} name${n === 1 ? '' : 's'} to fix (the daemon loads the file; the API refuses such names)\n`,
        );
        for (const p of names) io.out(`${file}: ${p.message}\n`);
        code = Math.max(code, 1);
      }
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      const n = err.problems.length;
      io.out(`${file}: ${n} problem${n === 1 ? '' : 's'} (checked as ${kind} file)\n`);
      for (const p of err.problems) io.out(`${file}: ${p.message}\n`);
      code = Math.max(code, 1);
    }
  }
  return code;
}
