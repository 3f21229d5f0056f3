// The committed record of what each suite of `npm test` holds
// (scripts/run-tests/test-inventory.json: per suite, how many tests it had and their names where
// its runner prints them) and the one list of skips CI accepts
// (scripts/run-tests/allowed-skips.json: suite, test and reason). A suite that comes out smaller
// than its record fails the run; recording again (`npm test -- --record NAME`) is how tests are
// removed on purpose, in the same commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { present } from './test-results.mjs';

export const inventoryPath = fileURLToPath(new URL('./test-inventory.json', import.meta.url));
export const allowedSkipsPath = fileURLToPath(new URL('./allowed-skips.json', import.meta.url));

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** `{suite: {tests, names}}` as committed. */
export function readInventory(path = inventoryPath) {
  return readJson(path);
}

/** The allowed skips, each `{suite, test, reason}`; every entry must say why. */
export function readAllowedSkips(path = allowedSkipsPath) {
  const list = readJson(path);
  if (!Array.isArray(list)) throw new Error(`${path}: must be a JSON array`);
  for (const entry of list) {
    for (const key of ['suite', 'test', 'reason']) {
      if (typeof entry?.[key] !== 'string' || entry[key].trim() === '') {
        throw new Error(`${path}: every entry needs a non-empty ${key}: ${JSON.stringify(entry)}`);
      }
    }
  }
  return list;
}

/**
 * The inventory with the suites of `runs` (`{name, counts, failed}`) recorded; other suites are
 * kept as they were. A run with no failure is recorded as it ran (how tests are removed on
 * purpose). A run that failed can only add to its suite's record (the union of the names, the
 * larger count): a failing test is still there, but a crash may have hidden others, so nothing
 * it lacks is taken out.
 */
export function recorded(inventory, runs) {
  const next = { ...inventory };
  for (const { name, counts, failed } of runs) {
    const old = inventory[name];
    next[name] =
      failed && old
        ? {
            tests: Math.max(old.tests, present(counts)),
            names: [...new Set([...old.names, ...counts.names])],
          }
        : { tests: present(counts), names: counts.names };
  }
  return next;
}

export function writeInventory(inventory, path = inventoryPath) {
  writeFileSync(path, `${JSON.stringify(inventory, null, 2)}\n`);
}
