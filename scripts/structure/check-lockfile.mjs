#!/usr/bin/env node
// Checks that `npm install` left package-lock.json describing the same dependencies as the
// committed one. Entries for optional, platform-specific packages (an `os` or `cpu` list, such as
// @biomejs/cli-darwin-x64) may appear or disappear: registry mirrors serve some platforms'
// binaries on one day and not the next, and npm records only what it could resolve. Everything
// else must match: a changed version, integrity, dependency list or a package added or removed
// is a real dependency change and fails the check.
//
// Usage: node scripts/structure/check-lockfile.mjs [--base REV] [FILE]
//   FILE defaults to package-lock.json; the committed copy is read from REV (default HEAD).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Is this lockfile entry an optional binary for particular platforms? */
export function isOptionalPlatformPackage(entry) {
  return Boolean(entry?.optional) && (Array.isArray(entry.os) || Array.isArray(entry.cpu));
}

/**
 * Differences between two parsed lockfiles that are real dependency changes.
 * @returns {string[]} one line per difference, empty when the two agree
 */
export function lockfileDifferences(committed, installed) {
  const problems = [];
  for (const key of ['name', 'version', 'lockfileVersion']) {
    if (committed[key] !== installed[key]) {
      problems.push(
        `${key}: ${JSON.stringify(committed[key])} -> ${JSON.stringify(installed[key])}`,
      );
    }
  }
  const before = committed.packages ?? {};
  const after = installed.packages ?? {};
  for (const path of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[path];
    const b = after[path];
    if (a === undefined || b === undefined) {
      const present = a ?? b;
      if (isOptionalPlatformPackage(present)) continue;
      problems.push(`${path || '(root)'}: ${a === undefined ? 'added' : 'removed'}`);
      continue;
    }
    const left = canonical(a);
    const right = canonical(b);
    if (left !== right) problems.push(`${path || '(root)'}: changed (${describeChange(a, b)})`);
  }
  return problems;
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function describeChange(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => canonical(a[k]) !== canonical(b[k])).join(', ');
}

function main(argv) {
  let base = 'HEAD';
  let file = 'package-lock.json';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--base') base = argv[++i];
    else file = argv[i];
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const committedText = execFileSync('git', ['show', `${base}:${file}`], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const installedText = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const problems = lockfileDifferences(JSON.parse(committedText), JSON.parse(installedText));
  if (problems.length > 0) {
    console.error(`${file} differs from ${base} after npm install (a dependency changed):`);
    for (const line of problems.slice(0, 50)) console.error(`  ${line}`);
    if (problems.length > 50) console.error(`  ... and ${problems.length - 50} more`);
    console.error('Run npm install and commit package-lock.json.');
    process.exit(1);
  }
  console.log(`${file}: same dependencies as ${base} (optional platform packages aside)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
