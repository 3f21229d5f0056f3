#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
// Builds the Debian package tributary_<version>_<arch>.deb from this checkout's built files:
// the daemon, its dashboard and its production node_modules in /usr/lib/tributary (stage.mjs),
// the command /usr/bin/tributary, the system unit daemon/systemd/tributary.service as it is,
// /etc/default/tributary (a conffile) and the maintainer scripts in debian/ (the user
// tributary, /var/lib/tributary, the service enabled and started; stopped on remove, its files
// deleted on purge). Node.js is not bundled: the package depends on nodejs (>= 20.19). The
// addon is machine code for this architecture (amd64 or arm64), so is the package; its library
// dependencies are read from the addon by dpkg-shlibdeps.
//
// Usage: node scripts/release/package/build-deb.mjs [--out DIR]   (default DIR: dist/ in the
// checkout)
// Needs: the builds stage.mjs names, dpkg-deb and dpkg-shlibdeps (Debian: dpkg-dev).
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { addonFile, DEBIAN_ARCH, repository, stage } from './stage.mjs';

const templates = fileURLToPath(new URL('debian/', import.meta.url));
export const NODE_DEPENDENCY = 'nodejs (>= 20.19)';

const run = (program, args, options = {}) =>
  execFileSync(program, args, { encoding: 'utf8', ...options }).trim();

/** Every regular file under `dir` (no folders, no links, nothing through a link), sorted. */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return filesUnder(dir, path);
      return entry.isFile() ? [path] : [];
    })
    .sort();
}

/** Maintainer: DEBFULLNAME and DEBEMAIL as Debian's tools read them, else the last commit's author. */
function maintainer(env = process.env) {
  if (env.DEBFULLNAME && env.DEBEMAIL) return `${env.DEBFULLNAME} <${env.DEBEMAIL}>`;
  return run('git', ['log', '-1', '--format=%an <%ae>'], { cwd: repository });
}

/** The shared libraries the addon links, as Depends (libc6, libgcc-s1, libssl3...). */
function libraryDepends(work, addon) {
  // dpkg-shlibdeps reads debian/control to know the package the addon is in.
  writeFileSync(
    join(work, 'debian', 'control'),
    'Source: tributary\n\nPackage: tributary\nArchitecture: any\n',
  );
  // Its warning that the addon is not "installed in its package's directory" (it is, in
  // debian/tributary) says nothing about the result: stderr is shown only on failure.
  const out = run('dpkg-shlibdeps', ['-O', '-e', addon], { cwd: work, stdio: 'pipe' });
  const line = out.split('\n').find((l) => l.startsWith('shlibs:Depends='));
  if (!line) throw new Error(`dpkg-shlibdeps printed no shlibs:Depends: ${out}`);
  return line.slice('shlibs:Depends='.length);
}

function control(fields) {
  const description = [
    'Network audio router for homes (Scream and RTP in, processed audio out)',
    ' Tributary receives PCM audio from Scream and RTP senders, processes it',
    ' (resampling, channel mapping, 18-band equalizer, volume, delay, mixing)',
    ' and sends it to sinks as Scream, RTP or PCM over TCP, controlled through',
    ' an HTTPS API and the web dashboard it serves. This package runs it as the',
    ' system service tributary.service.',
  ];
  return `${[
    `Package: tributary`,
    `Version: ${fields.version}`,
    `Architecture: ${fields.arch}`,
    `Maintainer: ${fields.maintainer}`,
    `Installed-Size: ${fields.installedSize}`,
    `Depends: ${fields.depends}`,
    'Section: sound',
    'Priority: optional',
    'Homepage: https://github.com/tributary-audio/tributary',
    `Description: ${description.join('\n')}`,
  ].join('\n')}\n`;
}

/** Text as roff shows it literally (inside .nf): backslashes doubled, no line read as a request. */
const roff = (text) =>
  text
    .replaceAll('\\', '\\e')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');

/** tributary(1): the command's own help, and that of serve (every setting), as a manual page. */
function manPage(version) {
  const help = (...args) =>
    run(process.execPath, [join(repository, 'daemon/dist/cli.js'), ...args, '--help']);
  return `.TH TRIBUTARY 1 "" "tributary ${version}" "User Commands"
.SH NAME
tributary \\- network audio router for homes
.SH SYNOPSIS
.B tributary
.I command
.RI [ options ]
.SH DESCRIPTION
.nf
${roff(help())}
.fi
.SH SERVE
.nf
${roff(help('serve'))}
.fi
.SH FILES
.TP
.I /var/lib/tributary/config.yaml
The service's configuration (also equalizers.yaml and the certificate beside it).
.TP
.I /etc/default/tributary
The service's settings, one NAME=value a line.
.SH SEE ALSO
.BR systemctl (1),
.BR journalctl (1);
.B tributary
.I command
.B --help
for each command's options.
`;
}

/** Builds the package into `out`; returns its path. */
export function buildDeb(out, arch = process.arch) {
  const debArch = DEBIAN_ARCH[arch];
  if (!debArch) throw new Error(`no Debian package for the architecture ${arch}`);
  const dpkgArch = run('dpkg', ['--print-architecture']);
  if (dpkgArch !== debArch) {
    throw new Error(`this dpkg builds ${dpkgArch} packages, the addon here is ${debArch}`);
  }
  const version = JSON.parse(readFileSync(join(repository, 'daemon/package.json'), 'utf8')).version;
  const work = mkdtempSync(join(tmpdir(), 'tributary-deb-'));
  try {
    const root = join(work, 'debian', 'tributary');
    const put = (path, from, mode = 0o644) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      copyFileSync(from, join(root, path));
      chmodSync(join(root, path), mode);
    };
    stage(join(root, 'usr/lib/tributary'), repository, arch);
    put('usr/bin/tributary', join(templates, 'tributary'), 0o755);
    put(
      'usr/lib/systemd/system/tributary.service',
      join(repository, 'daemon/systemd/tributary.service'),
    );
    put('etc/default/tributary', join(templates, 'default'));
    put('usr/share/doc/tributary/copyright', join(templates, 'copyright'));
    const man = join(root, 'usr/share/man/man1/tributary.1.gz');
    mkdirSync(dirname(man), { recursive: true });
    writeFileSync(man, gzipSync(manPage(version), { level: 9 }));
    chmodSync(man, 0o644);
    const doc = join(root, 'usr/share/doc/tributary/changelog.gz');
    const date = run('git', ['log', '-1', '--format=%aD'], { cwd: repository });
    const changelog = `tributary (${version}) unstable; urgency=medium\n\n  * Built from commit ${run('git', ['rev-parse', '--short', 'HEAD'], { cwd: repository })} of the repository.\n\n -- ${maintainer()}  ${date}\n`;
    writeFileSync(doc, gzipSync(changelog, { level: 9 }));
    chmodSync(doc, 0o644);

    const debian = join(root, 'DEBIAN');
    mkdirSync(debian);
    for (const script of ['postinst', 'prerm', 'postrm']) {
      copyFileSync(join(templates, script), join(debian, script));
      chmodSync(join(debian, script), 0o755);
    }
    writeFileSync(join(debian, 'conffiles'), '/etc/default/tributary\n');
    const files = filesUnder(root).filter((path) => !path.startsWith('DEBIAN/'));
    const sums = files.map(
      (path) =>
        `${createHash('md5')
          .update(readFileSync(join(root, path)))
          .digest('hex')}  ${path}`,
    );
    writeFileSync(join(debian, 'md5sums'), `${sums.join('\n')}\n`);
    const installedSize = Number(run('du', ['-sk', '--exclude=DEBIAN', root]).split('\t')[0]);
    const addon = join('debian/tributary/usr/lib/tributary', addonFile(arch));
    const libraries = libraryDepends(work, addon);
    const depends = [NODE_DEPENDENCY, 'adduser', libraries].join(', ');
    writeFileSync(
      join(debian, 'control'),
      control({ version, arch: debArch, maintainer: maintainer(), installedSize, depends }),
    );
    mkdirSync(out, { recursive: true });
    const deb = join(out, `tributary_${version}_${debArch}.deb`);
    rmSync(deb, { force: true });
    run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', root, deb]);
    return deb;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  try {
    const deb = buildDeb(resolve(values.out ?? join(repository, 'dist')));
    process.stdout.write(`${deb}\n`);
  } catch (err) {
    process.stderr.write(`build-deb: ${err.message}\n`);
    process.exit(1);
  }
}
