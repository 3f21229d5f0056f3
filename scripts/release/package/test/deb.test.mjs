// The Debian package (scripts/release/package/build-deb.mjs): built from this checkout, read back
// with dpkg-deb, checked by lintian, then installed with dpkg into a throwaway copy of this
// machine's root (throwaway-root.mjs: nothing on the machine changes, whatever the outcome), where
// the installed command, unit, user and daemon are tried before dpkg -r and dpkg -P, and everything
// the package left behind is listed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildDeb, NODE_DEPENDENCY } from '../build-deb.mjs';
import { DEBIAN_ARCH, missingBuilds, repository } from '../stage.mjs';
import { assertServes, serveInRoot } from './serve-in-root.mjs';
import { canMakeThrowawayRoot, throwawayRoot } from './throwaway-root.mjs';

const version = JSON.parse(readFileSync(join(repository, 'daemon/package.json'), 'utf8')).version;
const has = (program, arg = '--version') => spawnSync(program, [arg]).status === 0;
const cannotBuild =
  missingBuilds().length > 0
    ? `env: not built yet (${missingBuilds()
        .map(([p]) => p)
        .join(', ')}; npm test builds them first)`
    : !has('dpkg-deb') || !has('dpkg-shlibdeps')
      ? 'env: dpkg-deb and dpkg-shlibdeps are needed (Debian: dpkg-dev)'
      : false;
const cannotInstall = cannotBuild || canMakeThrowawayRoot();

let out;
let deb;
let root;
before(() => {
  if (cannotBuild) return;
  out = mkdtempSync(join(tmpdir(), 'tributary-deb-test-'));
  deb = buildDeb(out);
  if (!cannotInstall) root = throwawayRoot(out);
});
after(() => {
  root?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

const dpkgDeb = (...args) => execFileSync('dpkg-deb', args, { encoding: 'utf8' });
/** A shell command in the throwaway root that must succeed. */
function inRoot(command) {
  const res = root.run(command);
  assert.equal(res.status, 0, `${command}\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

test('the package names its version, architecture and what it needs from the system', {
  skip: cannotBuild,
}, () => {
  const arch = DEBIAN_ARCH[process.arch];
  assert.equal(basename(deb), `tributary_${version}_${arch}.deb`);
  const field = (name) => dpkgDeb('--field', deb, name).trim();
  assert.equal(field('Package'), 'tributary');
  assert.equal(field('Version'), version);
  assert.equal(field('Architecture'), arch, 'the addon is machine code: the package is too');
  const depends = field('Depends').split(/,\s*/);
  assert.equal(depends[0], NODE_DEPENDENCY, 'Node.js comes from the system');
  assert.ok(depends.includes('adduser'), 'postinst runs adduser');
  for (const library of ['libc6', 'libssl3', 'libgcc-s1']) {
    assert.ok(
      depends.some((d) => d.startsWith(library)),
      `${library} (linked by the addon) in ${depends}`,
    );
  }
  const info = dpkgDeb('--info', deb);
  for (const part of ['postinst', 'prerm', 'postrm', 'conffiles', 'md5sums']) {
    assert.match(info, new RegExp(`\\b${part}\\b`), `control archive holds ${part}`);
  }
});

test('its files: the daemon, dashboard, addon, production modules, unit and command, root-owned', {
  skip: cannotBuild,
}, () => {
  const lines = dpkgDeb('--contents', deb).trim().split('\n');
  const entries = new Map(
    lines.map((line) => {
      const [mode, owner, , , , ...rest] = line.split(/\s+/);
      return [rest.join(' ').replace(/^\.\//, '/'), { mode, owner }];
    }),
  );
  const addon = `/usr/lib/tributary/native/napi/tributary-native.linux-${process.arch}-gnu.node`;
  for (const path of [
    '/usr/bin/tributary',
    '/usr/lib/systemd/system/tributary.service',
    '/etc/default/tributary',
    '/usr/share/doc/tributary/copyright',
    '/usr/lib/tributary/daemon/bin/tributary.js',
    '/usr/lib/tributary/daemon/dist/cli.js',
    '/usr/lib/tributary/daemon/dashboard/dist/index.html',
    '/usr/lib/tributary/native/napi/index.js',
    addon,
    '/usr/lib/tributary/node_modules/fastify/package.json',
  ]) {
    assert.ok(entries.has(path), `the package holds ${path}`);
  }
  assert.equal(entries.get('/usr/bin/tributary').mode, '-rwxr-xr-x');
  assert.ok(
    entries.has('/usr/lib/tributary/node_modules/@tributary/native -> ../../native/napi'),
    'the workspace link is kept as a link',
  );
  for (const dev of ['typescript', 'tsx', '@biomejs', 'fast-check', 'dockerfile-utils', 'vite']) {
    assert.ok(
      ![...entries.keys()].some((p) => p.startsWith(`/usr/lib/tributary/node_modules/${dev}/`)),
      `no development package ${dev}`,
    );
  }
  assert.ok(
    ![...entries.keys()].some((p) => p.startsWith('/var/')),
    '/var/lib/tributary is made by postinst',
  );
  const owners = new Set([...entries.values()].map((e) => e.owner));
  assert.deepEqual([...owners], ['root/root']);
});

test('lintian reports no error and no warning it is not told why', {
  skip: cannotBuild || (!has('lintian') && 'env: lintian is not installed (Debian: lintian)'),
}, () => {
  const res = spawnSync(
    'lintian',
    ['--fail-on', 'error,warning', '--tag-display-limit', '0', deb],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(res.status, 0, `${res.stdout}${res.stderr}`);
  assert.doesNotMatch(res.stdout, /^[EW]: /m);
});

test('dpkg -i installs it: tributary --version, the user, its folder, the service enabled', {
  skip: cannotInstall,
}, () => {
  assert.deepEqual(root.changes(), [], 'the throwaway root starts as this machine');
  const nodejs = spawnSync('dpkg-query', ['-W', '-f', `\${Version}`, 'nodejs'], {
    encoding: 'utf8',
  });
  const satisfied =
    nodejs.status === 0 &&
    spawnSync('dpkg', ['--compare-versions', nodejs.stdout, 'ge', '20.19']).status === 0;
  // Where Node.js is not a Debian package (a CI runner's own), dpkg cannot see it: install
  // anyway, with /usr/bin/node pointing at the Node.js running this test.
  const force = satisfied ? '' : '--force-depends';
  if (!satisfied) inRoot(`[ -x /usr/bin/node ] || ln -s ${process.execPath} /usr/bin/node`);
  inRoot(`dpkg -i ${force} /mnt/${basename(deb)}`);
  assert.equal(inRoot('tributary --version').trim(), version);
  const [name, , uid, gid, , home, shell] = inRoot('getent passwd tributary').trim().split(':');
  assert.equal(name, 'tributary');
  assert.ok(Number(uid) < 1000, `a system user (uid ${uid})`);
  assert.deepEqual([home, shell], ['/var/lib/tributary', '/usr/sbin/nologin']);
  assert.equal(inRoot('stat -c "%U:%G %a" /var/lib/tributary').trim(), 'tributary:tributary 750');
  assert.equal(Number(gid), Number(inRoot('getent group tributary').split(':')[2]));
  const wants = inRoot('readlink /etc/systemd/system/multi-user.target.wants/tributary.service');
  assert.match(wants.trim(), /^(\/usr)?\/lib\/systemd\/system\/tributary\.service$/);
  const unit = inRoot('cat /usr/lib/systemd/system/tributary.service');
  assert.equal(unit, readFileSync(join(repository, 'daemon/systemd/tributary.service'), 'utf8'));
});

test('systemd-analyze verify accepts the installed unit without a word', {
  skip:
    cannotInstall ||
    (!has('systemd-analyze') && 'env: systemd-analyze is missing (Debian: systemd)'),
}, () => {
  const res = root.run('systemd-analyze verify /usr/lib/systemd/system/tributary.service');
  assert.equal(res.status, 0, res.stderr);
  assert.equal(`${res.stdout}${res.stderr}`, '');
});

/** The unit's `Name=` values. */
const unitValues = (unit, name) =>
  [...unit.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1].trim());

test('tributary serve runs as its unit runs it: as tributary, with its files in /var/lib/tributary', {
  skip: cannotInstall,
}, async () => {
  // No systemd runs here, so the unit's user, environment and command are applied by hand.
  const unit = inRoot('cat /usr/lib/systemd/system/tributary.service');
  const daemon = await serveInRoot(root, {
    user: unitValues(unit, 'User')[0],
    // systemd's own PATH for services, then the unit's variables.
    env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']
      .concat(unitValues(unit, 'Environment'))
      .join(' '),
    command: unitValues(unit, 'ExecStart')[0],
    configDir: 'var/lib/tributary',
  });
  try {
    await assertServes(assert, daemon);
    for (const file of ['config.yaml', 'equalizers.yaml', 'tributary.crt', 'tributary.key']) {
      const s = statSync(root.changed(`var/lib/tributary/${file}`));
      assert.equal(s.uid, Number(inRoot('id -u tributary')), `${file} belongs to tributary`);
    }
  } finally {
    const { code, output } = await daemon.stop();
    assert.equal(code, 0, `stopped cleanly on SIGTERM:\n${output}`);
  }
});

/** Changes dpkg and the accounts make on any machine: its records and log, the kept user. */
const BOOKKEEPING = [
  /^var\/lib\/dpkg\//,
  /^var\/log\/dpkg\.log$/,
  /^var\/cache\/man\//, // man-db's index, rebuilt by its trigger for any package's man page
  /^etc\/(passwd|group|shadow|gshadow)-?$/,
  /^etc\/\.pwd\.lock$/,
  /^usr\/bin\/node$/, // only where the install test had to link it
];
const leftovers = () => root.changes().filter((p) => !BOOKKEEPING.some((re) => re.test(p)));

test('dpkg -r keeps only the configuration; dpkg -P leaves nothing behind', {
  skip: cannotInstall,
}, (t) => {
  t.diagnostic(`installed: ${leftovers().length} paths beyond dpkg's records`);
  inRoot('dpkg -r tributary');
  assert.equal(root.run('test -e /usr/bin/tributary').status, 1);
  const kept = leftovers();
  t.diagnostic(`after dpkg -r: ${kept.join(' ')}`);
  assert.ok(kept.includes('etc/default/tributary'), 'the conffile stays');
  assert.ok(kept.includes('var/lib/tributary/config.yaml'), 'the configuration stays');
  const unexplained = kept.filter(
    (p) =>
      !p.startsWith('var/lib/tributary/') &&
      p !== 'var/lib/tributary/' &&
      p !== 'etc/default/tributary' &&
      !/^(etc\/systemd\/system\/|var\/lib\/systemd\/deb-systemd-helper-)/.test(p),
  );
  assert.deepEqual(unexplained, [], 'dpkg -r left only configuration and the service state');
  inRoot('dpkg -P tributary');
  t.diagnostic(
    `after dpkg -P, all the root holds beyond this machine: ${root.changes().join(' ')}`,
  );
  assert.deepEqual(leftovers(), [], 'dpkg -P left nothing');
  assert.equal(inRoot('getent passwd tributary').split(':')[0], 'tributary', 'the user stays');
});
