import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { soakOptions } from '../bench-soak.mjs';
import {
  actualConfig,
  configDifferences,
  expectedConfig,
  initialModel,
  nextChange,
} from '../soak/config-churn.mjs';
import { announcedPort, initialConfigYaml } from '../soak/house.mjs';
import { ANNOUNCED, planDay, prng, SENDERS } from '../soak/schedule.mjs';
import { senderCommand } from '../soak/senders.mjs';

test('the PRNG: the same seed draws the same numbers, another seed others, all in [0, 1)', () => {
  const draw = (seed) => Array.from({ length: 1000 }, prng(seed).next);
  const a = draw(35);
  assert.deepEqual(draw(35), a);
  assert.notDeepEqual(draw(36), a);
  assert.ok(a.every((x) => x >= 0 && x < 1));
  const mean = a.reduce((s, x) => s + x, 0) / a.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
  const r = prng(1);
  const ints = Array.from({ length: 500 }, () => r.int(3, 5));
  assert.deepEqual([...new Set(ints)].sort(), [3, 4, 5]);
});

test('the day: replayed exactly by its seed, in time order, inside the run', () => {
  const day = planDay({ minutes: 60, seed: 35 });
  assert.deepEqual(planDay({ minutes: 60, seed: 35 }), day);
  assert.notDeepEqual(planDay({ minutes: 60, seed: 7 }), day);
  for (let i = 1; i < day.length; i++) assert.ok(day[i].at >= day[i - 1].at);
  assert.ok(day.every((e) => e.at >= 0 && e.at < 60 * 60_000));
  const types = new Set(day.map((e) => e.type));
  for (const t of [
    'sender-start',
    'sender-stop',
    'sender-restart',
    'sender-stall',
    'mp3-join',
    'ws-join',
  ]) {
    assert.ok(types.has(t), `an hour has ${t}`);
  }
  assert.ok(
    day.some((e) => e.type === 'ws-join' && !e.reads),
    'some WebSocket clients never read',
  );
});

test('every sender starts first, and every stop is followed by a start', () => {
  const day = planDay({ minutes: 60, seed: 35 });
  for (const s of SENDERS) {
    const own = day.filter((e) => e.sender === s.id);
    assert.equal(own[0].type, 'sender-start', s.id);
    own.forEach((e, i) => {
      if (e.type === 'sender-stop')
        assert.equal(own[i + 1]?.type, 'sender-start', `${s.id} at ${e.at}`);
    });
  }
});

test('sixteen senders of four kinds; each announced one on a port of its own, all heard on Garden', () => {
  assert.equal(SENDERS.length, 16);
  assert.deepEqual(new Set(SENDERS.map((s) => s.kind)), new Set(['rtp', 'scream', 'sap', 'pulse']));
  assert.equal(new Set(ANNOUNCED.map(announcedPort)).size, ANNOUNCED.length);
  for (const s of ANNOUNCED) {
    const c = senderCommand(s, SENDERS.indexOf(s));
    const said = c.dir ? readFileSync(join(c.dir, 'sender.pa'), 'utf8') : c.args.join(' ');
    if (c.dir) rmSync(c.dir, { recursive: true, force: true });
    assert.match(said, new RegExp(`(:|port=)${announcedPort(s)}\\b`), s.id);
  }
  assert.ok(ANNOUNCED.every((s) => s.sink === 'Garden'));
  // Every Scream sender has an address of its own, and a source with that ip.
  const screams = SENDERS.filter((s) => s.kind === 'scream');
  assert.equal(new Set(screams.map((s) => s.from)).size, screams.length);
  for (const s of screams) assert.match(initialConfigYaml(), new RegExp(`ip: ${s.from}`));
});

test('a SAP sender changes format at each restart: the rate and channels ffmpeg is given', () => {
  const sap = SENDERS.find((s) => s.kind === 'sap' && s.formats);
  const i = SENDERS.indexOf(sap);
  const args = (n) => senderCommand(sap, i, n).args.join(' ');
  assert.match(
    args(0),
    new RegExp(`sample_rate=${sap.formats[0].rate} -ac ${sap.formats[0].channels} `),
  );
  assert.match(
    args(1),
    new RegExp(`sample_rate=${sap.formats[1].rate} -ac ${sap.formats[1].channels} `),
  );
  assert.equal(args(2), args(0));
});

test('a PulseAudio sender: its own folder and script, module-rtp-send looped back to the SAP group', () => {
  const pulse = SENDERS.find((s) => s.kind === 'pulse');
  const c = senderCommand(pulse, SENDERS.indexOf(pulse));
  try {
    assert.deepEqual(c.args.slice(0, 5), ['-r', '10', 'pulseaudio', '-n', '-F']);
    assert.equal(c.env.HOME, c.dir);
    const script = readFileSync(join(c.dir, 'sender.pa'), 'utf8');
    assert.match(script, /module-sine sink=gen frequency=770/);
    assert.match(
      script,
      /module-rtp-send source=gen\.monitor destination_ip=224\.2\.127\.254 port=\d+ loop=1/,
    );
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
  assert.equal(existsSync(c.dir), false);
});

test('hand edits: every sixth of the run, five of them, for an hour or five minutes', () => {
  for (const minutes of [60, 5]) {
    const edits = planDay({ minutes, seed: 35 }).filter((e) => e.type === 'hand-edit');
    assert.deepEqual(
      edits.map((e) => e.at),
      [1, 2, 3, 4, 5].map((k) => Math.round((k * minutes * 60_000) / 6)),
    );
  }
});

test('config churn: seeded, and monitored sinks keep playing (volume >= 0.2, routes kept)', () => {
  const run = (seed) => {
    const r = prng(seed);
    const model = initialModel();
    const requests = [];
    for (let i = 0; i < 3000; i++) {
      const c = nextChange(r, model);
      requests.push(`${c.method} ${c.path} ${JSON.stringify(c.body ?? null)}`);
      c.apply(model);
    }
    return { model, requests };
  };
  const { model, requests } = run(35);
  assert.deepEqual(run(35).requests, requests);
  const kinds = new Set(requests.map((q) => q.split(' ')[0]));
  assert.deepEqual([...kinds].sort(), ['DELETE', 'POST', 'PUT']);
  for (const s of model.sinks.values()) {
    if (s.monitored) {
      assert.ok(s.volume >= 0.2, `${s.name} volume ${s.volume}`);
      assert.ok(
        s.eq.every((g) => g >= 0.5 && g <= 1.5),
        `${s.name} EQ`,
      );
    }
  }
  const monitoredRoutes = [...model.routes.values()].filter((x) => x.monitored);
  assert.equal(monitoredRoutes.length, 4, 'no monitored route removed');
  assert.ok([...model.routes.values()].filter((x) => !x.monitored).length <= 4);
});

test('the expected config follows renames into routes and group members', () => {
  const model = initialModel();
  model.sinks.get('kitchen').name = 'Kitchen 1';
  model.sinks.get('spare-a').name = 'Hall 2';
  const want = expectedConfig(model);
  assert.equal(want.routes.find((x) => x.name === 'to-kitchen').sink, 'Kitchen 1');
  assert.deepEqual(want.sinks.find((s) => s.name === 'Upstairs').group_members, [
    'Attic',
    'Hall 2',
  ]);
  const flat = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`b${i + 1}`, 1]));
  const daemonSinks = want.sinks.map((s) =>
    s.group_members
      ? { name: s.name, volume: s.volume, is_group: true, group_members: s.group_members }
      : { name: s.name, volume: s.volume, is_group: false, equalizer: { ...flat, extra: 0 } },
  );
  assert.deepEqual(configDifferences(want, actualConfig(daemonSinks, want.routes)), []);
  daemonSinks[0].volume = 0.5;
  const diff = configDifferences(want, actualConfig(daemonSinks, want.routes.slice(1)));
  assert.equal(diff.length, 2, diff.join('\n'));
  assert.match(diff[0], /^sinks: /);
  assert.match(diff[1], /^routes: .* missing$/);
});

test('soak options: defaults, values, and a clear error for a bad one', () => {
  const d = soakOptions([]);
  assert.equal(d.minutes, 60);
  assert.equal(d.seed, 35);
  assert.match(d.out, /bench\/results\/soak\.json$/);
  assert.equal(d.dashboard, false);
  const o = soakOptions([
    '--minutes',
    '5',
    '--seed',
    '9',
    '--out',
    '/tmp/x.json',
    '--json',
    '--dashboard',
  ]);
  assert.deepEqual([o.minutes, o.seed, o.out, o.dashboard], [5, 9, '/tmp/x.json', true]);
  assert.throws(() => soakOptions(['--minutes', '0']), /--minutes must be/);
  assert.throws(() => soakOptions(['--seed', '1.5']), /--seed must be/);
  assert.throws(() => soakOptions(['--minutes']), /needs a value/);
  assert.equal(soakOptions(['--hours', '24']).minutes, 1440);
  assert.equal(soakOptions(['--hours', '1.5']).minutes, 90);
  assert.throws(() => soakOptions(['--hours', '25']), /--hours must be/);
  assert.throws(() => soakOptions(['--hours', '0']), /--hours must be/);
  assert.throws(() => soakOptions(['--days', '1']), /unknown option --days/);
});

test('the nightly workflow runs a soak the bench accepts, for as many hours as it is given', async () => {
  const { parse } = await import('yaml');
  const workflow = parse(
    readFileSync(new URL('../../../.github/workflows/soak.yml', import.meta.url), 'utf8'),
  );
  assert.ok(workflow.on.schedule?.length, 'it runs on a schedule');
  const step = workflow.jobs.soak.steps.find((s) => s.name === 'soak');
  const args = step.run.split('npm run bench -- soak ')[1].split(' ');
  const hours = workflow.jobs.soak.env.HOURS.match(/'(\d+)'/)[1];
  // The shell's quoting of "$HOURS" and "$RUNNER_TEMP/..." as the bench receives them.
  const given = args.map((a) =>
    a.replace('"$HOURS"', hours).replace(/^"\$RUNNER_TEMP(.*)"$/, '/tmp$1'),
  );
  const opts = soakOptions(given);
  assert.equal(opts.minutes, Number(hours) * 60);
  assert.equal(opts.dashboard, true);
  // GitHub's own runners end a job at 6 hours; the default fits in them.
  assert.ok(Number(hours) <= 5);
  assert.ok(workflow.jobs.soak['timeout-minutes'] >= 24 * 60, 'long enough for 24 hours');
});
