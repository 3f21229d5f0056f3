// What `tributary service` says when it cannot install, and the question it asks.
import { createInterface } from 'node:readline/promises';
import type { Choice } from './config-move.js';
import { type Layout, STATE_DIR } from './layout.js';
import { systemdWord } from './unit.js';

/** The command that runs the daemon from this layout. */
export function serveCommand(where: Layout): string {
  if (where.packaged) return '/usr/bin/tributary serve';
  return `${systemdWord(where.node)} ${systemdWord(where.launcher)} serve`;
}

export function noSystemd(command: string, where: Layout): string {
  return `tributary ${command}: systemd is not running as PID 1 here (no /run/systemd/system: a
container, WSL without systemd, another init system), so there is no service to ${command === 'service install' ? 'install' : 'remove'}.
Nothing was changed.

Run the daemon under your supervisor instead (runit, s6, supervisord, OpenRC, a container's
entry point), in the foreground, as an unprivileged user, with its files where that user may
write:

  CONFIG_PATH=${STATE_DIR}/config.yaml ${serveCommand(where)}

It logs to standard output (JSON lines when that is not a terminal), stops cleanly on SIGTERM,
re-reads its configuration on SIGHUP, and exits with code 1 on an invalid config.yaml (restarting
cannot fix that: do not restart it in a loop then). Ports 443 and 80 need root or
CAP_NET_BIND_SERVICE; without them it uses 8443 and 8080. The container image runs it this way
(see the Docker page of the documentation).
`;
}

/** Asks on the terminal what to do with the user's configuration; Enter moves it. */
export async function askChoice(from: string, to: string): Promise<Choice> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const answer = (
        await terminal.question(
          `Your configuration is in ${from}. The service reads ${to}.\n` +
            '[M]ove it there, [c]opy it (yours stays), or [l]eave it (the service starts empty)? ',
        )
      )
        .trim()
        .toLowerCase();
      if (answer === '' || answer === 'm' || answer === 'move') return 'move';
      if (answer === 'c' || answer === 'copy') return 'copy';
      if (answer === 'l' || answer === 'leave' || answer === 'n') return 'leave';
    }
  } finally {
    terminal.close();
  }
}
