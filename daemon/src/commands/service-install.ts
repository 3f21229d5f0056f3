import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bringConfig, type Choice, configState, userConfigDir } from './service/config-move.js';
import {
  layout,
  packagedUnit,
  SERVICE,
  STATE_DIR,
  systemdRuns,
  under,
  unitPath,
  unreachableBy,
  WRITTEN_MARK,
} from './service/layout.js';
import { askChoice, noSystemd } from './service/messages.js';
import { ensureServiceUser, systemctl } from './service/system.js';
import { unitFor } from './service/unit.js';
import { type CommandIO, processIO } from './types.js';

const usage = `Usage: tributary service install [--yes | --copy | --no-move] [--from DIR] [--root DIR]

Installs Tributary as a system service (run it as root: sudo npx tributary service install).
It creates the system user tributary, writes /etc/systemd/system/${SERVICE} running this
checkout with the Node.js that runs this command (from the Debian package: the package's unit as
it is), enables it and starts it. The service keeps its files in ${STATE_DIR}.

Your configuration (default: ~/.config/tributary of the user who ran sudo) can be brought
there, owned by tributary. On a terminal the command asks; otherwise say what to do:
  --yes        Move it (what the question does when you press Enter)
  --copy       Copy it; yours stays where it is
  --no-move    Leave it; the service starts from what ${STATE_DIR} holds (defaults if empty)
  --from DIR   The configuration folder to bring
  --root DIR   Work on DIR as the system's root (tests, image builds): nothing is started
Nothing in ${STATE_DIR} is overwritten. Without systemd (a container, WSL without systemd) it
changes nothing and prints how to run tributary serve under another supervisor.
Exit code: 0 installed, 1 could not install, 2 bad usage or no terminal to ask on.
`;

interface Options {
  readonly root: string;
  readonly from: string | undefined;
  readonly choice: Choice | undefined;
}

function parse(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      yes: { type: 'boolean', short: 'y' },
      copy: { type: 'boolean' },
      'no-move': { type: 'boolean' },
      from: { type: 'string' },
      root: { type: 'string' },
    },
  });
  if (values.help) return 'help';
  const chosen = (['yes', 'copy', 'no-move'] as const).filter((flag) => values[flag]);
  if (chosen.length > 1) throw new Error(`choose one of --${chosen.join(', --')}`);
  const choice = ({ yes: 'move', copy: 'copy', 'no-move': 'leave' } as const)[chosen[0]!];
  return {
    root: values.root === undefined ? '/' : resolve(values.root),
    from: values.from === undefined ? undefined : resolve(values.from),
    choice,
  };
}

export async function run(argv: string[], io: CommandIO = processIO): Promise<number> {
  let options: Options;
  try {
    const parsed = parse(argv);
    if (parsed === 'help') {
      io.out(usage);
      return 0;
    }
    options = parsed;
  } catch (err) {
    io.err(`tributary service install: ${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  const where = layout(options.root);
  if (!systemdRuns(where)) {
    io.err(noSystemd('service install', where));
    return 1;
  }
  const fail = (message: string) => {
    io.err(`tributary service install: ${message}\nNothing was changed.\n`);
    return 1;
  };
  if (process.getuid?.() !== 0) {
    return fail('it writes system files: run it as root (sudo npx tributary service install)');
  }
  if (!where.packaged) {
    if (!existsSync(where.program)) {
      return fail(`${where.program} is not built: run npm run build -w @tributary/daemon first`);
    }
    // Whether the service user can reach this checkout is a question about this machine: a
    // staged root (--root, tests and images) is checked where it is installed.
    const reach = where.root === '/' ? [where.node, where.launcher, where.program] : [];
    for (const path of reach) {
      const blocked = unreachableBy(path);
      if (blocked) {
        return fail(
          `the service runs as the user tributary, which cannot reach ${path}: ${blocked.dir} ` +
            `has mode ${blocked.mode.toString(8).padStart(4, '0')} (no access for other users).\n` +
            'Keep the checkout (and Node.js) where every user may read them, such as /opt/tributary ' +
            'and /usr/bin/node, or use the Debian package.',
        );
      }
    }
  }
  const from = userConfigDir(options.from);
  const to = under(where, STATE_DIR);
  const state = configState(from, to);
  let choice = options.choice;
  if (state === 'ready' && choice === undefined) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      io.err(
        `tributary service install: there is a configuration in ${from} and no terminal to ask ` +
          'whether to bring it: add --yes (move it), --copy or --no-move.\nNothing was changed.\n',
      );
      return 2;
    }
    choice = await askChoice(from, STATE_DIR);
  }

  const done: string[] = [];
  try {
    const user = ensureServiceUser(where);
    done.push(
      user.created
        ? `created the system user tributary (uid ${user.account.uid})`
        : `the system user tributary exists (uid ${user.account.uid})`,
    );
    const packaged = where.packaged ? packagedUnit(where) : undefined;
    if (packaged) {
      done.push(`kept the Debian package's unit ${packaged}`);
    } else {
      const path = unitPath(where);
      const checkout = resolve(dirname(where.launcher), '..', '..');
      const template = readFileSync(where.template, 'utf8');
      const unit = unitFor(template, { node: where.node, launcher: where.launcher, checkout });
      mkdirSync(dirname(path), { recursive: true });
      if (existsSync(path) && !readFileSync(path, 'utf8').startsWith(WRITTEN_MARK)) {
        renameSync(path, `${path}.replaced`);
        done.push(`kept the unit that was there as ${path}.replaced`);
      }
      writeFileSync(path, unit, { mode: 0o644 });
      done.push(`wrote ${path} (runs ${where.launcher} with ${where.node})`);
    }
    if (state === 'none') {
      done.push(`found no configuration in ${from}: the service starts from the defaults`);
    } else if (state === 'service-has-one') {
      done.push(`kept the configuration already in ${STATE_DIR}; ${from} was not touched`);
    } else if (choice === 'move' || choice === 'copy') {
      const { brought, kept } = bringConfig(from, to, choice, user.account);
      const verb = choice === 'move' && kept.length === 0 ? 'moved' : 'copied';
      done.push(`${verb} ${brought.join(', ')} from ${from} to ${STATE_DIR} (owner tributary)`);
      if (kept.length > 0) done.push(`kept ${kept.join(', ')} already in ${STATE_DIR}`);
    } else {
      done.push(`left your configuration in ${from}; the service starts from the defaults`);
    }
    if (where.root === '/') {
      for (const args of [['daemon-reload'], ['enable', '--now', SERVICE]]) {
        const res = systemctl(where, ...args);
        if (!res.ok) throw new Error(`${res.command} failed: ${res.output}`);
        done.push(`ran ${res.command}`);
      }
    } else {
      const res = systemctl(where, 'enable', SERVICE);
      if (!res.ok) throw new Error(`${res.command} failed: ${res.output}`);
      done.push(`enabled ${SERVICE} in ${where.root} (not started: an alternate root)`);
    }
  } catch (err) {
    const so =
      done.length > 0 ? `\nDone before that:\n${done.map((d) => `  ${d}\n`).join('')}` : '\n';
    io.err(`tributary service install: ${(err as Error).message}${so}`);
    return 1;
  }
  io.out(`Installed the Tributary service:\n${done.map((d) => `  - ${d}\n`).join('')}`);
  if (where.root === '/') {
    io.out('Its log (with the URLs to open): journalctl -u tributary\n');
  }
  return 0;
}
