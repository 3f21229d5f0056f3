// The rule of names (src/schema/name.ts) as ajv applies it: the JSON Schema pattern and the
// words of the 400 come from one list of refused characters and must agree on every character
// class, at every position; a lone surrogate is refused while a well-formed pair passes, which
// needs ajv's regular expressions to work on code points (the `u` flag).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Name } from '../../src/schema/common.js';
import {
  isName,
  NAME_PATTERN,
  nameFault,
  REFUSED_IN_NAMES,
  toName,
} from '../../src/schema/name.js';
import { ajv, check, coercingAjv } from '../../src/schema/validate.js';
import { freeName } from '../../src/services/discovery/reconciler.js';
import { BAD_NAMES, GOOD_NAMES } from '../robustness/bad-names.js';

/** Every refused code point, the ends of each range and one inside. */
const refusedSamples = REFUSED_IN_NAMES.flatMap((r) =>
  r.ranges.flatMap(([from, to]) => [from, Math.floor((from + to) / 2), to]),
).map((code) => String.fromCharCode(code));

test('ajv checks names with the u flag: the pattern sees code points', () => {
  assert.equal(ajv.opts.unicodeRegExp, true);
  assert.equal(coercingAjv.opts.unicodeRegExp, true);
  const validate = ajv.compile(Name);
  assert.equal(validate('\udfff'), false);
  assert.equal(validate('a\ud83d'), false);
  assert.equal(validate('\ude00\ud83d'), false);
  assert.equal(validate('\ud83d\ude00'), true, 'a well-formed pair (an emoji) is one character');
});

test('the pattern and nameFault agree on every refused character at every position', () => {
  const pattern = new RegExp(NAME_PATTERN, 'u');
  const cases: string[] = [...BAD_NAMES.map((b) => b.name), ...GOOD_NAMES, '/', 'a b', '\u00a0a'];
  for (const c of refusedSamples) cases.push(c, `a${c}`, `${c}b`, `a${c}b`);
  for (const name of cases) {
    const fault = nameFault(name);
    assert.equal(pattern.test(name), fault === null, `${JSON.stringify(name)}: ${fault}`);
    const problems = check(Name, name);
    assert.equal(problems.length === 0, fault === null, JSON.stringify(name));
    if (fault) assert.deepEqual([problems[0]!.keyword, problems[0]!.rule], ['name', fault]);
  }
  // Joiners, variation selectors and tag characters are emoji's: allowed.
  for (const emoji of ['👨‍👩‍👧', '❤️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'क्‍ष']) assert.equal(nameFault(emoji), null, emoji);
});

test('names from the network are made to follow the rule', () => {
  for (const { name } of BAD_NAMES) {
    const made = toName(name, 'Fallback');
    assert.ok(isName(made), `${JSON.stringify(name)} -> ${JSON.stringify(made)}`);
  }
  assert.equal(toName('abc\u202Efdp.exe', 'x'), 'abc fdp.exe');
  assert.equal(toName('..', 'SAP stream'), 'SAP stream');
  assert.equal(toName('\ud83d\ude00'.repeat(70), 'x'), '\ud83d\ude00'.repeat(64));
  assert.equal(freeName('Studio\u0085', ['Studio'], 'x'), 'Studio (2)');
  assert.ok(isName(freeName('x'.repeat(100), [], 'y')));
});
