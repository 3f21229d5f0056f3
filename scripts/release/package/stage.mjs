#!/usr/bin/env node
// Copies what the daemon needs at run time into one folder, laid out as the repository is, so
// its relative paths keep working: daemon/ (bin, dist, systemd, dashboard/dist, package.json),
// native/napi/ (the loader and this machine's built addon) and node_modules/ with the daemon's
// production dependencies exactly as `npm install` put them here from package-lock.json (no dev
// tools, no second resolution). The Debian package (build-deb.mjs) installs it as
// /usr/lib/tributary and the container image (container-build.sh) copies it in the same place.
//
// Usage: node scripts/release/package/stage.mjs DEST   (after npm run build:package -w native/napi
//        -w @tributary/daemon -w daemon/dashboard)
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repository = fileURLToPath(new URL('../../..', import.meta.url));

/** The addon's file name part for this machine (napi-rs `--platform` names). */
const TRIPLES = { x64: 'linux-x64-gnu', arm64: 'linux-arm64-gnu' };

/** Debian's name for the architecture of the addon built here. */
export const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' };

export function addonFile(arch = process.arch) {
  const triple = TRIPLES[arch];
  if (!triple) throw new Error(`no Linux addon is built for the architecture ${arch}`);
  return `native/napi/tributary-native.${triple}.node`;
}

/** What must be built before staging, with the command that builds each. */
export function missingBuilds(repo = repository, arch = process.arch) {
  const needs = [
    [addonFile(arch), 'npm run build:package -w native/napi'],
    ['daemon/dist/cli.js', 'npm run build -w @tributary/daemon'],
    ['daemon/dashboard/dist/index.html', 'npm run build -w daemon/dashboard'],
  ];
  return needs.filter(([path]) => !existsSync(join(repo, path)));
}

/** The folders of the daemon's production dependencies, relative to the repository. */
export function productionPackages(repo = repository) {
  const out = execFileSync(
    'npm',
    ['ls', '--omit=dev', '--all', '--parseable', '--workspace', '@tributary/daemon'],
    { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((path) => relative(repo, path))
    .filter((path) => path.split(sep).includes('node_modules'))
    .filter((path) => !path.startsWith(join('node_modules', '@tributary')));
}

/** In the dependencies' folders: what only their authors use (tests, benchmarks, CI, lint). */
const UNUSED_FOLDERS = new Set([
  '.github',
  '__tests__',
  'bench',
  'benchmark',
  'benchmarks',
  'coverage',
  'docs',
  'example',
  'examples',
  'integration',
  'test',
  'tests',
]);
const UNUSED_FILES =
  /^(\.gitattributes|\.npmignore|\.editorconfig|\.eslintrc.*|\.prettierrc.*|\.taprc|\.travis\.yml|.*\.d\.[cm]?ts|.*\.map|.*\.html|(?!LICEN[CS]E).*\.md)$/i;

/**
 * With `prune`, leaves out of the dependencies what never runs (their tests, benchmarks, type declarations,
 * documentation pages), and gives every file the mode its content asks for: 0755 for a script
 * (`#!`), 0644 for the rest (some packages publish every file executable).
 */
function tidy(dir, prune) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (prune && UNUSED_FOLDERS.has(entry.name) && !dir.endsWith(`${sep}node_modules`)) {
        rmSync(path, { recursive: true });
      } else tidy(path, prune);
    } else if (entry.isFile()) {
      if (prune && UNUSED_FILES.test(entry.name)) {
        rmSync(path);
        continue;
      }
      const head = Buffer.alloc(2);
      const fd = openSync(path, 'r');
      const read = readSync(fd, head, 0, 2, 0);
      closeSync(fd);
      chmodSync(path, read === 2 && head.toString() === '#!' ? 0o755 : 0o644);
    }
  }
}

/** Copies the run-time tree into `dest` (which must not exist yet); returns its package count. */
export function stage(dest, repo = repository, arch = process.arch) {
  const missing = missingBuilds(repo, arch);
  if (missing.length > 0) {
    throw new Error(
      `not built yet: ${missing.map(([p]) => p).join(', ')}; run ${missing.map(([, c]) => c).join(' && ')}`,
    );
  }
  if (existsSync(dest)) throw new Error(`${dest} exists already`);
  const copy = (path, filter = () => true) =>
    cpSync(join(repo, path), join(dest, path), { recursive: true, filter });
  for (const path of ['daemon/package.json', 'daemon/bin', 'daemon/dist', 'daemon/systemd']) {
    copy(path, (src) => !/\.(map|d\.ts)$/.test(src));
  }
  copy('daemon/dashboard/dist');
  for (const path of ['native/napi/package.json', 'native/napi/index.js', addonFile(arch)]) {
    copy(path);
  }
  // Symbols only a debugger reads, as Debian's dh_strip leaves them out (a third of the addon).
  execFileSync('strip', ['--strip-unneeded', join(dest, addonFile(arch))]);
  // The workspace link npm made, as a link: the daemon imports @tributary/native.
  mkdirSync(join(dest, 'node_modules/@tributary'), { recursive: true });
  symlinkSync('../../native/napi', join(dest, 'node_modules/@tributary/native'));
  const packages = productionPackages(repo);
  for (const path of packages) {
    // A package's own node_modules holds its dependencies: each is in the list if it is needed.
    const nested = join(repo, path, 'node_modules');
    copy(path, (src) => src !== nested);
  }
  tidy(join(dest, 'node_modules'), true);
  tidy(join(dest, 'daemon'), false);
  return packages.length;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [dest] = process.argv.slice(2);
  if (!dest) {
    process.stderr.write('Usage: node scripts/release/package/stage.mjs DEST\n');
    process.exit(2);
  }
  try {
    mkdirSync(dirname(resolve(dest)), { recursive: true });
    const count = stage(resolve(dest));
    process.stdout.write(`staged the daemon and ${count} packages in ${dest}\n`);
  } catch (err) {
    process.stderr.write(`${basename(process.argv[1])}: ${err.message}\n`);
    process.exit(1);
  }
}
