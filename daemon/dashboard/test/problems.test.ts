import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Problem } from '../src/api/schema';
import { placeProblems, withoutPath } from '../src/lib/problems';

const p = (path: string, rule: string, value?: unknown): Problem => ({
  path,
  keyword: 'x',
  rule,
  message: `${path || '(the document)'} ${rule}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`,
});

test("each problem goes next to the field it names, in the API's words without the path", () => {
  const placed = placeProblems(
    [
      p('volume', 'must be <= 1', 1.5),
      p('rtp.port', 'must be <= 65535', 70000),
      p('group_members[1]', 'must name an existing sink', 'Gone'),
      p('sinks[0].channels', 'must be 2 for channel_layout stereo', 6),
      p('', 'must be object'),
    ],
    ['name', 'volume', 'rtp', 'rtp.port', 'group_members'],
  );
  assert.deepEqual(placed.byField, {
    volume: ['must be <= 1 (got 1.5)'],
    'rtp.port': ['must be <= 65535 (got 70000)'],
    group_members: ['must name an existing sink (got "Gone")'],
  });
  assert.deepEqual(placed.other, [
    'sinks[0].channels must be 2 for channel_layout stereo (got 6)',
    '(the document) must be object',
  ]);
});

test('withoutPath keeps a message that does not start with its path', () => {
  assert.equal(withoutPath({ path: 'a', keyword: 'k', rule: 'r', message: 'other' }), 'other');
});
