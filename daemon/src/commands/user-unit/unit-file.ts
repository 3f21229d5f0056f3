// The user unit of `tributary receive` or `tributary send` (systemctl --user): where it lives and
// what it says. A user unit, not a system one: PulseAudio and PipeWire run in the user's session,
// and a system service could not reach them.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { execLine } from './exec-line.js';

/** What differs between the receiver's unit and the sender's. */
export interface EndpointUnit {
  /** `receive`, `send`: the word after `tributary`, and the unit's name after `tributary-`. */
  readonly command: string;
  /** The unit's Description=. */
  readonly description: string;
}

/** `tributary-receive.service`. */
export function unitName(endpoint: EndpointUnit): string {
  return `tributary-${endpoint.command}.service`;
}

/** The first line of every unit the command writes: --uninstall-unit removes only those. */
export function writtenMark(endpoint: EndpointUnit): string {
  return `# Written by \`tributary ${endpoint.command} --install-unit\``;
}

/**
 * The folder of the user's own units: $XDG_CONFIG_HOME/systemd/user, else
 * ~/.config/systemd/user (systemd.unit(5), "User Unit Search Path"). A relative
 * XDG_CONFIG_HOME is ignored, as the XDG base directory rules say.
 */
export function userUnitDir(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME;
  if (config && isAbsolute(config)) return join(config, 'systemd', 'user');
  return join(env.HOME || homedir(), '.config', 'systemd', 'user');
}

/** The unit's text: `program` with `args` exactly as given (exec-line.ts quotes them). */
export function renderUnit(
  endpoint: EndpointUnit,
  program: string,
  args: readonly string[],
): string {
  const command = `tributary ${endpoint.command}`;
  return `${writtenMark(endpoint)}; \`${command} --uninstall-unit\` removes it.
# To change the options, run ${command} --install-unit with the new ones.
[Unit]
Description=${endpoint.description}
Documentation=https://github.com/tributary-audio/tributary
# The session's sound server: PipeWire's PulseAudio server, or PulseAudio itself. Ordering only;
# socket activation starts whichever the session has when the program connects.
After=pipewire-pulse.service pulseaudio.service
# A sound server or network that comes up late is retried every RestartSec, without a limit.
StartLimitIntervalSec=0

[Service]
Type=exec
ExecStart=${execLine(program, args)}
Restart=on-failure
RestartSec=2
# Status 2 is a bad option: restarting cannot fix it (journalctl --user -u ${unitName(endpoint)}).
RestartPreventExitStatus=2

[Install]
WantedBy=default.target
`;
}
