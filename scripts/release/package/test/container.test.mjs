// The container image's sources: the Dockerfile linted (dockerfile-utils, every check at error
// level), each of its steps a step of scripts/release/package/container-build.sh, and those steps
// run here in a plain shell (base images cannot be pulled on this machine; the GitHub workflow
// builds the image itself): over a copy of the build context as docker would send it, then the
// runtime step and the staged files in a throwaway root, where `tributary` runs as its user.
// The compose files: host networking, and port mapping with the ports and limits it documents.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ValidationSeverity, validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { addonFile, missingBuilds, repository } from '../stage.mjs';
import { assertServes, serveInRoot } from './serve-in-root.mjs';
import { canMakeThrowawayRoot, throwawayRoot } from './throwaway-root.mjs';

const read = (path) => readFileSync(join(repository, path), 'utf8');
const dockerfile = read('Dockerfile');
const script = 'scripts/release/package/container-build.sh';

test('the Dockerfile passes dockerfile-utils with every check an error', () => {
  const strict = Object.fromEntries(
    [
      'deprecatedMaintainer',
      'directiveCasing',
      'emptyContinuationLine',
      'instructionCasing',
      'instructionCmdMultiple',
      'instructionEntrypointMultiple',
      'instructionHealthcheckMultiple',
      'instructionJSONInSingleQuotes',
      'instructionWorkdirRelative',
    ].map((name) => [name, ValidationSeverity.ERROR]),
  );
  const problems = validate(dockerfile, strict).map(
    (d) => `Dockerfile:${d.range.start.line + 1}: ${d.message}`,
  );
  assert.deepEqual(problems, []);
});

test('the Dockerfile pins its bases by tag and builds only through container-build.sh', () => {
  const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
  assert.equal(bases.length, 2, 'a build stage and a runtime stage');
  for (const base of bases) {
    assert.match(
      base,
      /^node:\d+\.\d+\.\d+-bookworm(-slim)?$/,
      `${base}: a Debian Node.js, exact version`,
    );
  }
  assert.match(bases[1], /-slim$/, 'a slim runtime');
  const steps = script.replace(/.*\//, '');
  const known = [...read(script).matchAll(/^([a-z]+)\)$/gm)].map((m) => m[1]);
  const runs = [...dockerfile.replaceAll('\\\n', ' ').matchAll(/^RUN\s+(.*)$/gm)].map((m) => m[1]);
  assert.ok(runs.length > 0);
  for (const run of runs) {
    for (const command of run.split('&&').map((c) => c.trim())) {
      if (command.startsWith('rm ')) continue;
      const m = new RegExp(`^sh \\S*${steps} ([a-z]+)`).exec(command);
      assert.ok(m, `RUN ${command}: every build step is one of ${steps}'s`);
      assert.ok(known.includes(m[1]), `${steps} has the step ${m[1]}`);
    }
  }
  assert.match(dockerfile, /^USER tributary$/m, 'not root at run time');
  assert.match(dockerfile, /^CMD \["tributary", "serve"\]$/m);
});

test('compose files: host networking, and port mapping with its ports and without discovery', () => {
  const host = parse(read('compose.yaml')).services.tributary;
  assert.equal(host.network_mode, 'host');
  assert.equal(host.ports, undefined, 'nothing to publish on the host network');
  assert.deepEqual(host.volumes, ['tributary-config:/var/lib/tributary']);
  const mapped = parse(read('compose.ports.yaml')).services.tributary;
  assert.equal(mapped.network_mode, undefined);
  for (const port of [
    '443:443/tcp',
    '80:80/tcp',
    '4010-4020:4010-4020/udp',
    '40000-40001:40000-40001/udp',
  ]) {
    assert.ok(mapped.ports.includes(port), `publishes ${port}`);
  }
  assert.ok(
    mapped.ports.some((p) => /^16401(-\d+)?:16401/.test(p)),
    'publishes 16401/udp',
  );
  assert.equal(mapped.environment.DISCOVERY, 'off', 'multicast does not reach it: no SAP, no mDNS');
  assert.match(read('compose.ports.yaml'), /multicast does not reach the container/);
  const page = read('content/docs/docker.mdx');
  const shown = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.deepEqual(
    shown,
    [read('compose.yaml'), read('compose.ports.yaml')],
    'the Docker page shows them',
  );
  assert.match(
    page,
    new RegExp(`\`${dockerfile.match(/^FROM (node:\S+-slim)$/m)[1]}\``),
    'and the base',
  );
});

/** The build context docker sends: the checkout's files less .dockerignore's names. */
function copyContext(to) {
  const ignored = read('.dockerignore')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^\*\*\/(\*?)([\w.-]+)$/.exec(line);
      assert.ok(m, `.dockerignore line '${line}' is of the form **/name or **/*.ext`);
      return (segment) => (m[1] ? segment.endsWith(m[2]) : segment === m[2]);
    });
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: repository,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter(Boolean)
    .filter((path) => !path.split('/').some((seg) => ignored.some((match) => match(seg))));
  for (const path of files) {
    mkdirSync(join(to, path, '..'), { recursive: true });
    cpSync(join(repository, path), join(to, path));
  }
  return files.length;
}

const cannot =
  (missingBuilds().length > 0 && 'env: the addon is not built (npm test builds it first)') ||
  canMakeThrowawayRoot() ||
  (spawnSync('git', ['--version']).status !== 0 && 'env: git is needed');
const work = cannot ? undefined : mkdtempSync('/var/tmp/tributary-container-');
after(() => work && rmSync(work, { recursive: true, force: true }));

test('the build steps work in a plain shell, and the image they make runs tributary as its user', {
  skip: cannot,
  timeout: 15 * 60_000,
}, async () => {
  const context = join(work, 'context');
  const count = copyContext(context);
  assert.ok(count > 100, `a whole checkout (${count} files)`);
  for (const excluded of ['node_modules', 'daemon/dist', addonFile()]) {
    assert.equal(
      spawnSync('test', ['-e', join(context, excluded)]).status,
      1,
      `${excluded} left out`,
    );
  }
  // The addon takes minutes of Rust here: the one built from this checkout goes in, and the
  // step says it keeps it (the image builds it with npm run build:package -w native/napi).
  copyFileSync(join(repository, addonFile()), join(context, addonFile()));
  const shell = (...args) => {
    const res = spawnSync('sh', [join(context, script), ...args], {
      cwd: context,
      encoding: 'utf8',
      env: { ...process.env, TRIBUTARY_PREBUILT_ADDON: '1' },
    });
    assert.equal(res.status, 0, `${script} ${args.join(' ')}:\n${res.stdout}${res.stderr}`);
    return res.stdout;
  };
  assert.match(shell('build'), /keeping the addon built here/);
  const out = join(work, 'share', 'out');
  shell('stage', out);
  copyFileSync(join(context, script), join(work, 'share', 'container-build.sh'));

  const root = throwawayRoot(join(work, 'share'));
  try {
    const step = (command) => {
      const res = root.run(command);
      assert.equal(res.status, 0, `${command}\n${res.stdout}${res.stderr}`);
      return res.stdout;
    };
    // The runtime stage: its step, then COPY --from=build /out/ /.
    step('sh /mnt/container-build.sh runtime && cp -a /mnt/out/. /');
    assert.equal(step('stat -c "%U:%G %a" /var/lib/tributary').trim(), 'tributary:tributary 750');
    assert.match(step('getent passwd tributary'), /:\/var\/lib\/tributary:\/usr\/sbin\/nologin$/m);
    const version = JSON.parse(read('daemon/package.json')).version;
    const asUser = 'setpriv --reuid=tributary --regid=tributary --init-groups';
    assert.equal(step(`${asUser} tributary --version`).trim(), version);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const env = [...runtimeStage.matchAll(/^(?:ENV|\s+)\s*([A-Z_]+=\S+?)(?: \\)?$/gm)].map(
      (m) => m[1],
    );
    assert.ok(
      env.includes('CONFIG_PATH=/var/lib/tributary/config.yaml'),
      `the image's ENV: ${env}`,
    );
    const daemon = await serveInRoot(root, {
      user: 'tributary',
      env: `PATH=/usr/local/bin:/usr/bin:/bin ${env.join(' ')}`,
      command: 'tributary serve',
      configDir: 'var/lib/tributary',
    });
    try {
      await assertServes(assert, daemon);
    } finally {
      const { code, output } = await daemon.stop();
      assert.equal(code, 0, `stopped cleanly on SIGTERM:\n${output}`);
    }
  } finally {
    root.remove();
  }
});
