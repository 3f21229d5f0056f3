import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addEntity,
  type Config,
  deleteEntity,
  emptyConfig,
  referrers,
  updateEntity,
  validateConfig,
} from '../../src/config/model.js';
import type { RouteInput } from '../../src/schema/route.js';
import { RouteInput as RouteSchema } from '../../src/schema/route.js';
import type { SinkInput } from '../../src/schema/sink.js';
import { SinkInput as SinkSchema } from '../../src/schema/sink.js';
import type { SourceInput } from '../../src/schema/source.js';
import { SourceInput as SourceSchema } from '../../src/schema/source.js';
import { check } from '../../src/schema/validate.js';

const sink = (input: Record<string, unknown>) => {
  assert.deepEqual(check(SinkSchema, input), []);
  return input as SinkInput;
};
const source = (input: Record<string, unknown>) => {
  assert.deepEqual(check(SourceSchema, input), []);
  return input as SourceInput;
};
const route = (input: Record<string, unknown>) => {
  assert.deepEqual(check(RouteSchema, input), []);
  return input as RouteInput;
};

function house(): Config {
  const c = emptyConfig();
  addEntity(c, 'sink', sink({ name: 'Kitchen', ip: '10.0.0.2' }));
  addEntity(c, 'sink', sink({ name: 'Den', ip: '10.0.0.3' }));
  addEntity(
    c,
    'sink',
    sink({ name: 'Downstairs', is_group: true, group_members: ['Kitchen', 'Den'] }),
  );
  addEntity(c, 'sink', sink({ name: 'House', is_group: true, group_members: ['Downstairs'] }));
  addEntity(c, 'source', source({ name: 'PC', ip: '10.0.0.10' }));
  addEntity(c, 'source', source({ name: 'PCs', is_group: true, group_members: ['PC'] }));
  addEntity(c, 'route', route({ name: 'PC to house', source: 'PCs', sink: 'House' }));
  addEntity(c, 'route', route({ name: 'PC to kitchen', source: 'PC', sink: 'Kitchen' }));
  return c;
}

describe('config model', () => {
  test('a consistent configuration has no problems', () => {
    assert.deepEqual(validateConfig(house()), []);
  });

  test('renaming a sink rewrites group members and routes in the same change', () => {
    const c = house();
    const id = c.sinks[0]!.config_id;
    updateEntity(c, 'sink', 'Kitchen', { name: 'Cuisine' });
    assert.equal(c.sinks[0]!.name, 'Cuisine');
    assert.equal(c.sinks[0]!.config_id, id, 'config_id survives the rename');
    assert.deepEqual(c.sinks[2]!.group_members, ['Cuisine', 'Den']);
    assert.equal(c.routes[1]!.sink, 'Cuisine');
    assert.deepEqual(validateConfig(c), []);
  });

  test('renaming a source group rewrites routes and enclosing groups', () => {
    const c = house();
    addEntity(c, 'source', source({ name: 'All', is_group: true, group_members: ['PCs'] }));
    updateEntity(c, 'source', 'PCs', { name: 'Computers' });
    assert.equal(c.routes[0]!.source, 'Computers');
    assert.deepEqual(c.sources[2]!.group_members, ['Computers']);
  });

  test('a partial update changes only the given fields and merges equalizer bands', () => {
    const c = house();
    const before = structuredClone(c.sinks[1]!);
    updateEntity(c, 'sink', 'Den', { volume: 0.25, equalizer: { b3: 1.5 } });
    assert.equal(c.sinks[1]!.volume, 0.25);
    assert.equal(c.sinks[1]!.equalizer.b3, 1.5);
    assert.equal(c.sinks[1]!.equalizer.b4, 1);
    assert.deepEqual(
      { ...c.sinks[1]!, volume: before.volume, equalizer: before.equalizer },
      before,
    );
  });

  test('config_id cannot change; the same value is accepted', () => {
    const c = house();
    const id = c.sinks[0]!.config_id;
    updateEntity(c, 'sink', 'Kitchen', { config_id: id, volume: 0.5 });
    assert.throws(
      () =>
        updateEntity(c, 'sink', 'Kitchen', { config_id: '0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11' }),
      (err: Error & { statusCode?: number; details?: { path: string }[] }) =>
        err.statusCode === 400 && err.details?.[0]?.path === 'config_id',
    );
  });

  test('duplicate names and ids are 409s; unknown names 404s', () => {
    const c = house();
    assert.throws(() => addEntity(c, 'sink', sink({ name: 'Den' })), {
      code: 'TRIBUTARY_DUPLICATE_NAME',
      statusCode: 409,
    });
    assert.throws(() => updateEntity(c, 'sink', 'Den', { name: 'Kitchen' }), {
      code: 'TRIBUTARY_DUPLICATE_NAME',
    });
    assert.throws(
      () => addEntity(c, 'source', source({ name: 'X', config_id: c.sinks[0]!.config_id })),
      { code: 'TRIBUTARY_DUPLICATE_ID', statusCode: 409 },
    );
    assert.throws(() => updateEntity(c, 'route', 'nope', {}), {
      code: 'TRIBUTARY_NOT_FOUND',
      statusCode: 404,
    });
    assert.throws(() => deleteEntity(c, 'source', 'nope'), { code: 'TRIBUTARY_NOT_FOUND' });
  });

  test('deleting something still referenced is a 409 that says by what', () => {
    const c = house();
    assert.deepEqual(referrers(c, 'sink', 'Kitchen'), [
      "sink group 'Downstairs'",
      "route 'PC to kitchen'",
    ]);
    assert.throws(() => deleteEntity(c, 'sink', 'Kitchen'), {
      code: 'TRIBUTARY_IN_USE',
      statusCode: 409,
      message:
        "Cannot delete sink 'Kitchen': it is used by sink group 'Downstairs', route 'PC to kitchen'",
    });
    deleteEntity(c, 'route', 'PC to kitchen');
    updateEntity(c, 'sink', 'Downstairs', { group_members: ['Den'] });
    deleteEntity(c, 'sink', 'Kitchen');
    assert.equal(c.sinks.length, 3);
  });

  test('a change that breaks a reference is refused with the field of the request', () => {
    const c = house();
    assert.throws(
      () => addEntity(c, 'route', route({ name: 'R', source: 'Nobody', sink: 'Den' })),
      (err: Error & { details?: { path: string; keyword: string }[] }) =>
        err.details?.[0]?.path === 'source' && err.details[0].keyword === 'reference',
    );
    assert.throws(
      () => addEntity(c, 'sink', sink({ name: 'G', is_group: true, group_members: ['Nobody'] })),
      (err: Error & { details?: { path: string }[] }) =>
        err.details?.[0]?.path === 'group_members[0]',
    );
  });

  test('group cycles, self-membership and members on non-groups are reported with paths', () => {
    const c = house();
    c.sinks[3]!.group_members.push('House');
    c.sinks[2]!.group_members.push('House');
    c.sinks[0]!.group_members.push('Den');
    const problems = validateConfig(c);
    const byKeyword = (k: string) => problems.filter((p) => p.keyword === k).map((p) => p.message);
    assert.deepEqual(byKeyword('group'), [
      'sinks[0].group_members must be empty unless is_group is true (got ["Den"])',
    ]);
    const cycles = byKeyword('cycle');
    assert.ok(
      cycles.includes(
        'sinks[2].group_members must not contain itself (Downstairs -> House -> Downstairs)',
      ),
      cycles.join('\n'),
    );
    assert.ok(
      cycles.includes('sinks[3].group_members must not contain itself (House -> House)'),
      cycles.join('\n'),
    );
  });

  test('duplicate names in a file are reported at the second entry', () => {
    const c = house();
    c.sinks.push({
      ...structuredClone(c.sinks[0]!),
      config_id: '5d0c1c43-6a55-4a43-9b5e-0d3a1b0f2f4a',
    });
    assert.deepEqual(
      validateConfig(c).map((p) => p.message),
      ['sinks[4].name must be unique (sinks[0] has it too) (got "Kitchen")'],
    );
  });
});

describe('sink formats the engine can play', () => {
  const fresh = () => {
    const c = emptyConfig();
    addEntity(c, 'sink', sink({ name: 'K' }));
    return c;
  };
  test('channels and channel_layout follow each other when only one is given', () => {
    const c = emptyConfig();
    assert.equal(addEntity(c, 'sink', sink({ name: 'A' })).channel_layout, 'stereo');
    assert.equal(addEntity(c, 'sink', sink({ name: 'B', channel_layout: '5.1' })).channels, 6);
    assert.equal(addEntity(c, 'sink', sink({ name: 'C', channels: 8 })).channel_layout, '7.1');
    assert.equal(addEntity(c, 'sink', sink({ name: 'D', channels: 1 })).channel_layout, 'mono');
    updateEntity(c, 'sink', 'A', { channel_layout: 'quad' });
    assert.equal(c.sinks[0]!.channels, 4);
    updateEntity(c, 'sink', 'A', { channels: 4 });
    assert.equal(c.sinks[0]!.channel_layout, 'quad', 'a fitting layout is kept');
    updateEntity(c, 'sink', 'A', { channels: 6 });
    assert.equal(c.sinks[0]!.channel_layout, '5.1');
  });

  test('channels that disagree with the layout, or 32-bit RTP, are refused naming the field', () => {
    const c = fresh();
    assert.throws(
      () => updateEntity(c, 'sink', 'K', { channels: 2, channel_layout: '7.1' }),
      (err: Error & { details?: { message: string }[] }) =>
        err.details?.[0]?.message === 'channels must be 8 for channel_layout 7.1 (got 2)',
    );
    // (A refused change may leave its draft half-applied; the store throws the draft away.)
    assert.throws(
      () => updateEntity(fresh(), 'sink', 'K', { channels: 5 }),
      (err: Error & { details?: { message: string }[] }) =>
        err.details?.[0]?.message === 'channels must be 2 for channel_layout stereo (got 5)',
    );
    assert.throws(
      () => updateEntity(fresh(), 'sink', 'K', { protocol: 'rtp', bit_depth: 32 }),
      (err: Error & { details?: { message: string }[] }) =>
        err.details?.[0]?.message === 'bit_depth must be 16 or 24 when protocol is rtp (got 32)',
    );
    const ok = fresh();
    updateEntity(ok, 'sink', 'K', { protocol: 'rtp', bit_depth: 24 });
    assert.deepEqual(validateConfig(ok), []);
  });
});
