// The unit `tributary service install` writes for a checkout: the repository's unit
// (daemon/systemd/tributary.service, which the Debian package ships as it is) with ExecStart=
// naming this Node.js and this checkout's launcher instead of the package's /usr/bin/tributary.
import { execWord } from '../user-unit/exec-line.js';
import { inHomes, WRITTEN_MARK } from './layout.js';

/** ExecStart= of the shipped unit: the Debian package's command. */
export const PACKAGED_EXEC = 'ExecStart=/usr/bin/tributary serve';

/** One word of a systemd command line: specifiers (%) and variables ($) doubled, quoted if needed. */
export const systemdWord = execWord;

export interface UnitProgram {
  /** The Node.js to run (absolute). */
  readonly node: string;
  /** The launcher it runs (absolute): `<checkout>/daemon/bin/tributary.js`. */
  readonly launcher: string;
  /** The checkout, for the unit's first comment. */
  readonly checkout: string;
}

/** The unit for `program`, from the shipped unit's text. */
export function unitFor(template: string, program: UnitProgram): string {
  const lines = template.split('\n');
  const exec = lines.indexOf(PACKAGED_EXEC);
  if (exec < 0) throw new Error(`the unit template has no line '${PACKAGED_EXEC}'`);
  lines[exec] = `ExecStart=${systemdWord(program.node)} ${systemdWord(program.launcher)} serve`;
  if (inHomes(program.node) || inHomes(program.launcher)) {
    const home = lines.indexOf('ProtectHome=yes');
    if (home < 0) throw new Error("the unit template has no line 'ProtectHome=yes'");
    // The service must read the checkout; it still cannot write anything there.
    lines[home] = 'ProtectHome=read-only';
  }
  const start = lines.findIndex((line) => !line.startsWith('#'));
  return [
    `${WRITTEN_MARK} for the checkout ${program.checkout}.`,
    '# `tributary service uninstall` removes it; the repository keeps the original in',
    '# daemon/systemd/tributary.service.',
    ...lines.slice(start),
  ].join('\n');
}
