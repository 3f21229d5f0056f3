// Entries in URLs: by name, or by config_id when the name is one no URL can carry (issue 26).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rememberEntries, segment } from '../src/api/addresses';

const entry = (name: string, config_id: string) => ({ name, config_id });

test('a valid name goes in the URL percent-encoded; a bad one by its config_id', () => {
  rememberEntries({
    sinks: [entry('\udfff', 'id-surrogate'), entry('..', 'id-dots'), entry('Küche', 'id-k')],
    sources: [entry('a\u202eb', 'id-bidi')],
    routes: [entry('.', 'id-dot')],
  } as never);
  assert.equal(segment('sinks', 'Küche'), 'K%C3%BCche');
  assert.equal(segment('sinks', '\udfff'), 'id-surrogate');
  assert.equal(segment('sinks', '..'), 'id-dots');
  assert.equal(segment('sources', 'a\u202eb'), 'id-bidi');
  assert.equal(segment('routes', '.'), 'id-dot');
  // The same name in another collection is not that entry.
  assert.equal(segment('routes', '\udfff'), '%EF%BF%BD');
  // No id to go by (a preset, an entry not in the configuration): never a thrown URIError.
  assert.equal(segment('equalizers', 'x\udfff'), 'x%EF%BF%BD');
});
