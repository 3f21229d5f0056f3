// The configuration changes the soak makes through the API, one a second, and the configuration
// they must leave: a model of the sinks and routes the script controls, and `nextChange`, which
// draws a change from the seeded PRNG, says the request that makes it and applies it to the
// model. Monitored sinks keep playing their sender: their volume stays at 0.2 or more, their EQ
// bands within 0.5-1.5 and their routes are never removed (renaming them is fine: routes and
// groups follow the new name). Pure; the run sends the requests (run-churn in soak-run.mjs).
import { GROUP, monitoredRoutes, SINKS } from './house.mjs';

const BANDS = 18;
const round2 = (x) => Math.round(x * 100) / 100;

/** The model at the start, as config.yaml has it. */
export function initialModel() {
  const sinks = new Map();
  for (const s of SINKS) {
    sinks.set(s.key, {
      key: s.key,
      name: s.name,
      monitored: s.monitored,
      volume: 1,
      eq: Array(BANDS).fill(1),
    });
  }
  sinks.set(GROUP.key, {
    key: GROUP.key,
    name: GROUP.name,
    monitored: false,
    group: true,
    members: [...GROUP.members],
    volume: 1,
    eq: Array(BANDS).fill(1),
  });
  const routes = new Map(monitoredRoutes().map((r) => [r.name, { ...r, monitored: true }]));
  return { sinks, routes, renames: 0, added: 0 };
}

const nameOf = (model, key) => model.sinks.get(key).name;
const enc = encodeURIComponent;
const eqBody = (eq) => Object.fromEntries(eq.map((g, i) => [`b${i + 1}`, g]));

/** The spare sinks (routes are added to these and the group). */
const spares = (model) => [...model.sinks.values()].filter((s) => !s.monitored && !s.group);

/** The kinds of change, with their weights. */
const KINDS = [
  ['sink-volume', 3],
  ['route-volume', 2],
  ['equalizer', 2],
  ['route-add', 2],
  ['route-remove', 2],
  ['group-members', 1],
  ['rename', 1],
];

function drawKind(r) {
  const total = KINDS.reduce((n, [, w]) => n + w, 0);
  let x = r.next() * total;
  for (const [kind, w] of KINDS) {
    if (x < w) return kind;
    x -= w;
  }
  return KINDS[0][0];
}

/**
 * The next change: `{ kind, method, path, body?, apply(model) }`. `apply` is called once the
 * daemon answered 2xx. Draws until a kind applies (route-remove needs an added route).
 */
export function nextChange(r, model) {
  for (;;) {
    const change = draw(r, model, drawKind(r));
    if (change) return change;
  }
}

function draw(r, model, kind) {
  const sinks = [...model.sinks.values()];
  if (kind === 'sink-volume' || kind === 'route-volume') {
    // A monitored sink stays at 0.2 or more, a monitored route at 0.3 or more: still heard.
    const [list, map, key, floor] =
      kind === 'sink-volume'
        ? ['sinks', 'sinks', (e) => e.key, 0.2]
        : ['routes', 'routes', (e) => e.name, 0.3];
    const entry = r.pick([...model[map].values()]);
    const volume = round2(entry.monitored ? r.range(floor, 1) : r.range(0, 1));
    return {
      kind,
      method: 'PUT',
      path: `/${list}/${enc(entry.name)}/volume/${volume}`,
      apply: (m) => {
        m[map].get(key(entry)).volume = volume;
      },
    };
  }
  if (kind === 'equalizer') {
    const sink = r.pick(sinks.filter((s) => !s.group));
    const eq = [...sink.eq];
    eq[r.int(0, BANDS - 1)] = round2(sink.monitored ? r.range(0.5, 1.5) : r.range(0, 2));
    return {
      kind,
      method: 'POST',
      path: `/sinks/${enc(sink.name)}/equalizer`,
      body: eqBody(eq),
      apply: (m) => {
        m.sinks.get(sink.key).eq = eq;
      },
    };
  }
  if (kind === 'route-add') {
    const extra = [...model.routes.values()].filter((x) => !x.monitored);
    if (extra.length >= 4) return null;
    const sink = r.pick([...spares(model), model.sinks.get(GROUP.key)]);
    const source = r.pick(['rtp-3', 'rtp-1', 'scream-1', 'SAP streams']);
    const name = `churn-${model.added + 1}`;
    return {
      kind,
      method: 'POST',
      path: '/routes',
      body: { name, source, sink: sink.name },
      apply: (m) => {
        m.added += 1;
        m.routes.set(name, { name, source, sink: sink.key, volume: 1, monitored: false });
      },
    };
  }
  if (kind === 'route-remove') {
    const extra = [...model.routes.values()].filter((x) => !x.monitored);
    if (extra.length === 0) return null;
    const route = r.pick(extra);
    return {
      kind,
      method: 'DELETE',
      path: `/routes/${enc(route.name)}`,
      apply: (m) => {
        m.routes.delete(route.name);
      },
    };
  }
  if (kind === 'group-members') {
    const pool = spares(model);
    const members = pool.filter(() => r.next() < 0.5).map((s) => s.key);
    if (members.length === 0) members.push(r.pick(pool).key);
    return {
      kind,
      method: 'PUT',
      path: `/sinks/${enc(nameOf(model, GROUP.key))}`,
      body: { group_members: members.map((k) => nameOf(model, k)) },
      apply: (m) => {
        m.sinks.get(GROUP.key).members = members;
      },
    };
  }
  // rename: a sink takes a new name (its base name and a counter, so names stay unique).
  const sink = r.pick(sinks);
  const base = sink.name.replace(/ \d+$/, '');
  const name = `${base} ${model.renames + 1}`;
  return {
    kind,
    method: 'PUT',
    path: `/sinks/${enc(sink.name)}`,
    body: { name },
    apply: (m) => {
      m.renames += 1;
      m.sinks.get(sink.key).name = name;
    },
  };
}

/** The model as comparable data: sinks and routes by name, as GET /sinks and /routes give them. */
export function expectedConfig(model) {
  const sinks = [...model.sinks.values()]
    .map((s) => ({
      name: s.name,
      volume: s.volume,
      ...(s.group
        ? { group_members: s.members.map((k) => nameOf(model, k)).sort() }
        : { equalizer: eqBody(s.eq) }),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const routes = [...model.routes.values()]
    .map((x) => ({
      name: x.name,
      source: x.source,
      sink: nameOf(model, x.sink),
      volume: x.volume,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { sinks, routes };
}

/** What the daemon (GET /sinks, GET /routes, or config.yaml) holds, in the shape above. */
export function actualConfig(sinks, routes) {
  return {
    sinks: sinks
      .map((s) => ({
        name: s.name,
        volume: s.volume,
        ...(s.is_group
          ? { group_members: [...s.group_members].sort() }
          : { equalizer: pickBands(s.equalizer) }),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    routes: routes
      .map((x) => ({ name: x.name, source: x.source, sink: x.sink, volume: x.volume }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const pickBands = (eq) =>
  Object.fromEntries(Array.from({ length: BANDS }, (_, i) => [`b${i + 1}`, eq?.[`b${i + 1}`]]));

/** The differences between expected and actual, as readable lines (empty: equal). */
export function configDifferences(expected, actual) {
  const lines = [];
  for (const part of ['sinks', 'routes']) {
    const want = new Map(expected[part].map((x) => [x.name, JSON.stringify(x)]));
    const have = new Map(actual[part].map((x) => [x.name, JSON.stringify(x)]));
    for (const [name, w] of want) {
      if (!have.has(name)) lines.push(`${part}: ${name} missing`);
      else if (have.get(name) !== w)
        lines.push(`${part}: ${name} is ${have.get(name)}, expected ${w}`);
    }
    for (const name of have.keys())
      if (!want.has(name)) lines.push(`${part}: ${name} not expected`);
  }
  return lines;
}
