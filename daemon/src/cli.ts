#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { serve } from './server.js';
import { version } from './version.js';

const usage = `Usage: tributary <command> [options]

Commands:
  serve                 Run the daemon (HTTP API and audio engine)

Options:
  -h, --help            Show this help
  -v, --version         Print the version

Environment:
  API_HOST              Address to bind (default 0.0.0.0)
  HTTP_PORT             Port for the HTTP API (default 8080)
`;

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    process.stderr.write(`tributary: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const [command] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(usage);
    return values.help ? 0 : 2;
  }
  if (command === 'serve') {
    const port = Number(process.env.HTTP_PORT ?? 8080);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(
        `tributary: HTTP_PORT must be an integer 0-65535, got '${process.env.HTTP_PORT}'\n`,
      );
      return 2;
    }
    const server = await serve({ host: process.env.API_HOST ?? '0.0.0.0', port });
    const stop = () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1; // keep running
  }
  process.stderr.write(`tributary: unknown command '${command}'\n\n${usage}`);
  return 2;
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
