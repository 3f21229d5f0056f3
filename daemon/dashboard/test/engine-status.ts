// An engine status for the dashboard's tests: running, every counter the engine declares at 0
// (read from its generated fields, so a counter added in Rust needs no edit here), and the fields
// a test sets.
import { EngineStatsFields } from '../../src/schema/generated/engine-reports.js';
import type { EngineStatus } from '../src/api/schema';

const counters = Object.fromEntries(Object.keys(EngineStatsFields).map((name) => [name, 0]));

export function engineStatus(fields: Partial<EngineStatus> = {}): EngineStatus {
  return {
    state: 'running',
    error: null,
    revision: 1,
    rejected: null,
    restarts: 0,
    last_fault: null,
    quarantined: [],
    ...counters,
    cpu_percent: 0,
    simd: { best: 'avx2', used: 'avx2', problem: null },
    problems: [],
    ports: { scream: [4010], tagged: null, rtp: [40000] },
    ...fields,
  } as EngineStatus;
}
