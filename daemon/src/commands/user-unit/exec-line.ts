// A program and its arguments as one systemd ExecStart= line, and that line read back the way
// systemd reads it (systemd.service(5) "Command lines", systemd.syntax(7) "Quoting"), so a unit
// never runs anything but the argv it was given. No shell is involved: systemd splits the line
// itself. What it does to the line, in order:
//   1. specifiers: `%x` is replaced in the whole line, `%%` is a `%`;
//   2. words: split at blanks; "..." or '...' keep blanks; C escapes (\\ \" \n \x41 ...) are
//      decoded; an unquoted `;` word separates commands;
//   3. variables: in the arguments (not the program's path), `$NAME` and `${NAME}` are replaced
//      from the environment, `$$` is a `$`.
// So every word doubles its `%` and (arguments only) `$`, and any word with more than safe
// characters is double-quoted with `\` and `"` escaped. Control characters and empty words are
// refused rather than escaped: no option of ours takes them, and they hide in a unit file.

/** Characters a word may hold unquoted: no blank, quote, backslash, `;`, `%` or `$`. */
const PLAIN = /^[A-Za-z0-9/._+@:,=-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a word cannot go into a unit file. */
export class ExecWordError extends Error {}

function check(word: string): void {
  if (word === '') throw new ExecWordError('an empty argument cannot be written into a unit');
  const control = CONTROL.exec(word);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(2, '0');
    throw new ExecWordError(
      `${JSON.stringify(word)}: a control character (0x${code}) cannot be written into a unit`,
    );
  }
  if (LONE_SURROGATE.test(word))
    throw new ExecWordError(`${JSON.stringify(word)}: not valid Unicode`);
}

/** One argument of ExecStart= (after the program): `%` and `$` doubled, quoted when needed. */
export function execWord(word: string): string {
  check(word);
  const escaped = word.replaceAll('%', '%%').replaceAll('$', '$$$$');
  if (PLAIN.test(escaped)) return escaped;
  return `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The whole ExecStart= value for an absolute program path and its arguments. */
export function execLine(program: string, args: readonly string[]): string {
  if (!program.startsWith('/')) throw new ExecWordError(`${program}: the program must be absolute`);
  // systemd does not expand variables in the program's path, so a `$` there cannot be escaped.
  if (program.includes('$')) throw new ExecWordError(`${program}: a '$' in the program's path`);
  check(program);
  const escaped = program.replaceAll('%', '%%');
  const first = PLAIN.test(escaped)
    ? escaped
    : `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return [first, ...args.map(execWord)].join(' ');
}

const ESCAPES: Record<string, string> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  s: ' ',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** One C escape at `line[i]` (just after the backslash): its text and how many characters. */
function cEscape(line: string, i: number): [string, number] {
  const c = line[i];
  if (c === undefined) throw new ExecWordError('a backslash at the end of the line');
  if (c in ESCAPES) return [ESCAPES[c]!, 1];
  const hex = { x: 2, u: 4, U: 8 }[c as 'x' | 'u' | 'U'];
  if (hex !== undefined) {
    const digits = line.slice(i + 1, i + 1 + hex);
    if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) throw new ExecWordError(`bad \\${c}`);
    return [String.fromCodePoint(Number.parseInt(digits, 16)), 1 + hex];
  }
  const octal = line.slice(i, i + 3);
  if (/^[0-3][0-7]{2}$/.test(octal)) return [String.fromCharCode(Number.parseInt(octal, 8)), 3];
  throw new ExecWordError(`unknown escape \\${c}`);
}

/** Steps 1 and 2: the line's words. A specifier other than `%%` is refused (its value varies). */
function words(value: string): string[] {
  let line = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '%') {
      line += value[i];
      continue;
    }
    if (value[i + 1] !== '%') throw new ExecWordError(`a specifier %${value[i + 1] ?? ''}`);
    line += '%';
    i++;
  }
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === undefined && (c === ' ' || c === '\t')) {
      if (word !== undefined) out.push(word);
      word = undefined;
      continue;
    }
    if (quote === undefined && c === ';' && word === undefined && /^;(\s|$)/.test(line.slice(i))) {
      throw new ExecWordError('a second command after an unquoted ;');
    }
    word ??= '';
    if (c === '\\') {
      const [text, used] = cEscape(line, i + 1);
      word += text;
      i += used;
    } else if (quote !== undefined && c === quote) {
      quote = undefined;
    } else if (quote === undefined && (c === '"' || c === "'")) {
      quote = c;
    } else {
      word += c;
    }
  }
  if (quote !== undefined) throw new ExecWordError('unbalanced quotes');
  if (word !== undefined) out.push(word);
  return out;
}

/** Step 3 for one argument: `$$` is a `$`; a variable is refused (its value varies). */
function literal(word: string): string {
  return word.replace(/\$(\$|\{[^}]*\}?|[A-Za-z_][A-Za-z0-9_]*|)/g, (match, what: string) => {
    if (what === '$') return '$';
    throw new ExecWordError(`a variable ${match}`);
  });
}

/** The argv systemd runs for an ExecStart= value, or an error for anything that would vary. */
export function parseExecLine(value: string): string[] {
  const [program, ...args] = words(value);
  if (program === undefined) throw new ExecWordError('no program');
  return [program, ...args.map(literal)];
}
