// The vocabulary of bad names (issue 26), shared by the fuzzer's name tests and the tests
// against a real daemon: one name of each class the rule of names refuses, what the 400 says
// about it, and names close to them that must still be accepted.

/** One bad name of each class, and what the rule it breaks says. */
export const BAD_NAMES: readonly { what: string; name: string; rule: RegExp }[] = [
  { what: 'a lone low surrogate', name: '\udfff', rule: /lone UTF-16 surrogate \(U\+DFFF/ },
  { what: 'a lone high surrogate', name: 'Den\ud83d', rule: /lone UTF-16 surrogate \(U\+D83D/ },
  { what: 'a reversed pair', name: '\ude00\ud83d', rule: /lone UTF-16 surrogate/ },
  { what: 'a C0 control', name: 'a\u0007b', rule: /control character \(U\+0007/ },
  { what: 'a NUL', name: '\u0000', rule: /control character \(U\+0000/ },
  { what: 'DEL', name: 'a\u007f', rule: /control character \(U\+007F/ },
  { what: 'a C1 control', name: 'a\u0085b', rule: /control character \(U\+0085/ },
  { what: 'a bidi override', name: 'abc\u202Efdp.exe', rule: /bidirectional control/ },
  { what: 'a bidi isolate', name: '\u2067x', rule: /bidirectional control character \(U\+2067/ },
  { what: 'a zero-width space', name: 'a\u200bb', rule: /invisible formatting character/ },
  { what: 'a byte order mark', name: 'a\ufeffb', rule: /invisible formatting character/ },
  { what: 'a line separator', name: 'a\u2028b', rule: /line or paragraph separator/ },
  { what: 'a slash', name: 'a/b', rule: /must not contain "\/"/ },
  { what: 'a lone slash', name: '/', rule: /must not contain "\/"/ },
  { what: 'a dot', name: '.', rule: /must not be "\." or "\.\."/ },
  { what: 'two dots', name: '..', rule: /must not be "\." or "\.\."/ },
  { what: 'a leading space', name: ' a', rule: /white space/ },
];

/** Names that are fine, though they look close to bad ones: they must still be accepted. */
export const GOOD_NAMES = [
  '...',
  '.hidden',
  'a.b',
  'Küche',
  '🎵 Hi-Fi',
  '👨‍👩‍👧 Room',
  'Wohnzimmer 2',
];

/** Percent-encoding of a name for a URL (a lone surrogate has no UTF-8: its WTF-8 bytes). */
export function inUrl(name: string): string {
  return Array.from(name, (c) => {
    const code = c.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      return bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return c === '.' ? '%2E' : encodeURIComponent(c);
  }).join('');
}
