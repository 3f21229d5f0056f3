// Solves a workload in its own process and prints the answer as JSON, so a test can bound the
// time a solve may take (a solve blocks its thread: the test's own timeout could not fire) and
// kill it past the bound. Usage: solve-worker.ts nested|house SIZE
import { largeHouse, nestedGroups } from '../../scripts/solver-workloads.js';
import { solve } from '../../src/solver/solve.js';

const [workload, size] = process.argv.slice(2);
const config = workload === 'nested' ? nestedGroups(Number(size)) : largeHouse(Number(size));
process.stdout.write(JSON.stringify(solve(config)));
