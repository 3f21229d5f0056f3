// The rule every name follows (sinks, sources, routes, groups of both kinds, equalizer presets,
// and every field that refers to one): a name is a URL path segment and a label people read, so
// it holds only well-formed, visible text. One list of the characters refused drives both the
// JSON Schema `pattern` (validation, OpenAPI) and `nameFault` (the 400's words), so the two
// cannot disagree.
//
// The pattern is ECMA-262, the dialect JSON Schema names, and ajv compiles it with the `u` flag
// (its default `unicodeRegExp`): then a class such as [^\uD800-\uDFFF] works on code points, so
// it refuses a lone surrogate and lets a well-formed pair (an emoji) through. A validator whose
// regular expressions work on UTF-8 text cannot see a lone surrogate at all (its strings cannot
// hold one), so the rule means the same everywhere.

/** The shortest and longest name, in characters (code points). */
export const NAME_MIN_LENGTH = 1;
export const NAME_MAX_LENGTH = 64;

interface Refused {
  /** What the characters are, for the error: "a control character". */
  readonly what: string;
  /** The same for the rule in words: "control characters". */
  readonly plural: string;
  /** Inclusive code point ranges. */
  readonly ranges: readonly (readonly [number, number])[];
}

/**
 * The characters no name may hold, besides "/". Zero-width joiners (U+200C, U+200D), variation
 * selectors and emoji tag characters stay allowed: emoji and several scripts need them.
 */
export const REFUSED_IN_NAMES: readonly Refused[] = [
  // C0 controls, DEL and the C1 controls (U+0085 NEXT LINE among them).
  {
    what: 'a control character',
    plural: 'control characters',
    ranges: [
      [0x00, 0x1f],
      [0x7f, 0x9f],
    ],
  },
  // Trojan Source (CVE-2021-42574): these reorder how the text around them is shown.
  {
    what: 'a bidirectional control character',
    plural: 'bidirectional controls',
    ranges: [
      [0x061c, 0x061c],
      [0x200e, 0x200f],
      [0x202a, 0x202e],
      [0x2066, 0x2069],
    ],
  },
  // Invisible: two names that look the same must be the same name.
  {
    what: 'an invisible formatting character',
    plural: 'invisible formatting characters',
    ranges: [
      [0x00ad, 0x00ad],
      [0x180e, 0x180e],
      [0x200b, 0x200b],
      [0x2060, 0x2065],
      [0xfeff, 0xfeff],
      [0xfff9, 0xfffb],
    ],
  },
  {
    what: 'a line or paragraph separator',
    plural: 'line or paragraph separators',
    ranges: [[0x2028, 0x2029]],
  },
  // Half of a UTF-16 pair without the other half: not text, and no URL can carry it (it has
  // no UTF-8 encoding), so an entry so named could never be addressed again.
  {
    what: 'a lone UTF-16 surrogate',
    plural: 'lone UTF-16 surrogates',
    ranges: [[0xd800, 0xdfff]],
  },
];

const hex = (code: number) => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
const refusedClass = REFUSED_IN_NAMES.flatMap((r) =>
  r.ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)),
).join('');

/**
 * The name rule as a regular expression (with the `u` flag): not "." or "..", no "/", none of
 * the refused characters, no white space at either end. Length is minLength/maxLength's.
 */
export const NAME_PATTERN = `^(?!\\.\\.?$)(?!\\s)(?![\\s\\S]*\\s$)[^/${refusedClass}]+$`;

const codePoint = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The rule in words, for the error of a name without a more precise fault, the OpenAPI document
 * (`x-rule`) and the API reference; the code points are in the pattern and the docs.
 */
export const NAME_RULE =
  `${NAME_MIN_LENGTH} to ${NAME_MAX_LENGTH} characters, not "." or "..", with no "/", no ` +
  `${REFUSED_IN_NAMES.map((r) => r.plural).join(', ')} and no white space at either end`;

/**
 * The first way `name` breaks the rule, as a rule in words ("must not contain a control
 * character (U+0007 at character 3)"), or null when it follows it. Length aside: minLength and
 * maxLength say that.
 */
export function nameFault(name: string): string | null {
  if (name === '.' || name === '..') {
    return 'must not be "." or ".." (URLs drop such a path segment)';
  }
  let position = 0;
  for (const char of name) {
    position += 1;
    if (char === '/') return `must not contain "/" (character ${position})`;
    const code = char.codePointAt(0)!;
    for (const refused of REFUSED_IN_NAMES) {
      if (refused.ranges.some(([from, to]) => code >= from && code <= to)) {
        return `must not contain ${refused.what} (${codePoint(code)} at character ${position})`;
      }
    }
  }
  if (/^\s|\s$/u.test(name)) return 'must not begin or end with white space';
  return null;
}

/** Whether `value` follows the whole rule, length included. */
export function isName(value: string): boolean {
  const length = [...value].length;
  return length >= NAME_MIN_LENGTH && length <= NAME_MAX_LENGTH && nameFault(value) === null;
}

/**
 * A name made from text found on the network (an announced stream, a device's TXT record): the
 * refused characters become spaces, runs of white space one space, cut to `maxLength`
 * characters; `fallback` when nothing is left (or only "." or "..").
 */
export function toName(text: string, fallback: string, maxLength = NAME_MAX_LENGTH): string {
  const kept = Array.from(text, (char) => {
    const code = char.codePointAt(0)!;
    const refused = REFUSED_IN_NAMES.some((r) => r.ranges.some(([f, t]) => code >= f && code <= t));
    return refused || char === '/' ? ' ' : char;
  });
  const spaced = kept.join('').replace(/\s+/gu, ' ').trim();
  const cut = Array.from(spaced).slice(0, maxLength).join('').trim();
  return cut === '' || cut === '.' || cut === '..' ? fallback : cut;
}
