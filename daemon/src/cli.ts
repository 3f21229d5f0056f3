#!/usr/bin/env node
// The `tributary` command. Each subcommand is a module in commands/, loaded only when it runs;
// adding one is one line in `commands` below.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CommandIO, type CommandModule, processIO } from './commands/types.js';
import { version } from './version.js';

interface CommandEntry {
  /** Words that select it: "serve", "config check". */
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

const commands: readonly CommandEntry[] = [
  {
    name: 'serve',
    summary: 'Run the daemon (HTTPS API, configuration store, audio engine)',
    load: () => import('./commands/serve.js'),
  },
  {
    name: 'render',
    summary: "Run a route's processing offline over a raw or WAV file",
    load: () => import('./commands/render.js'),
  },
  {
    name: 'receive',
    summary: 'Play Scream from the network on this machine (PulseAudio/PipeWire)',
    load: () => import('./commands/receive.js'),
  },
  {
    name: 'send',
    summary: 'Send audio from this machine to Tributary as RTP or Scream (PulseAudio/PipeWire)',
    load: () => import('./commands/send.js'),
  },
  {
    name: 'service install',
    summary: 'Install the system service (systemd) for this checkout or package',
    load: () => import('./commands/service-install.js'),
  },
  {
    name: 'service uninstall',
    summary: 'Stop and remove that service (keeps its configuration)',
    load: () => import('./commands/service-uninstall.js'),
  },
  {
    name: 'config check',
    summary: "Validate config or equalizer files (default: the daemon's own); print every problem",
    load: () => import('./commands/config-check.js'),
  },
];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return `Usage: tributary <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Options:
  -h, --help     Show this help (tributary <command> --help for a command's own)
  -v, --version  Print the version
`;
}

/** Help for a word that starts several commands: `tributary config --help`. */
function groupUsage(group: string, members: readonly CommandEntry[]): string {
  const width = Math.max(...members.map((c) => c.name.length)) + 2;
  return `Usage: tributary ${group} <command> [options]

Commands:
${members.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Run tributary ${members[0]?.name} --help for a command's own options.
`;
}

export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [first] = argv;
  if (first === '-v' || first === '--version') {
    io.out(`${version}\n`);
    return 0;
  }
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.out(usage());
    return first === undefined ? 2 : 0;
  }
  if (first.startsWith('-')) {
    io.err(`tributary: unknown option '${first}'\n\n${usage()}`);
    return 2;
  }
  const match = [...commands]
    .sort((a, b) => b.name.length - a.name.length)
    .find((c) => {
      const words = c.name.split(' ');
      return words.every((w, i) => argv[i] === w);
    });
  const partial = commands.filter((c) => c.name.startsWith(`${first} `));
  const second = argv[1];
  if (!match && partial.length > 0 && (second === '-h' || second === '--help')) {
    io.out(groupUsage(first, partial));
    return 0;
  }
  if (!match) {
    const hint =
      partial.length > 0 ? `; did you mean ${partial.map((c) => `'${c.name}'`).join(', ')}?` : '';
    io.err(`tributary: unknown command '${argv.slice(0, 2).join(' ')}'${hint}\n\n${usage()}`);
    return 2;
  }
  const module = await match.load();
  return module.run(argv.slice(match.name.split(' ').length), io);
}

/** True when this file is the program (node cli.js, the npm bin link, tsx), not an import. */
function isEntry(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) process.exitCode = await main(process.argv.slice(2));
