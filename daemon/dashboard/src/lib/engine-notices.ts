// What the dashboard says about the engine's own troubles, from /ws/stats: a failure (it did not
// start, or a thread failed and it is restarting), sources and sinks it left out because they
// kept making it fail, a configuration it refused, and a fault it recovered from lately.
import type { EngineStatus } from '../api/schema';

export interface Notice {
  readonly key: string;
  readonly tone: 'danger' | 'warning';
  readonly text: string;
}

/** A fault this recent is still worth saying, ms. */
export const RECENT_FAULT_MS = 5 * 60_000;

const ago = (ms: number) =>
  ms < 60_000
    ? `${Math.max(1, Math.round(ms / 1000))} s ago`
    : `${Math.round(ms / 60_000)} min ago`;

export function engineNotices(engine: EngineStatus | null | undefined): Notice[] {
  if (!engine || engine.state === 'off') return [];
  const notices: Notice[] = [];
  if (engine.state === 'failed') {
    notices.push({
      key: 'failed',
      tone: 'danger',
      text:
        `The audio engine is not running: ${engine.error ?? 'it failed to start'}. ` +
        'The configuration still works; audio resumes once the engine runs.',
    });
  }
  for (const q of engine.quarantined) {
    notices.push({
      key: `quarantined-${q.config_id}`,
      tone: 'danger',
      text: `Left out of the audio: ${q.message}`,
    });
  }
  const rejected = engine.rejected;
  if (rejected && (engine.revision === null || rejected.revision > engine.revision)) {
    notices.push({
      key: `rejected-${rejected.revision}`,
      tone: 'danger',
      text:
        `The audio engine refused configuration revision ${rejected.revision}: ${rejected.reason}. ` +
        (engine.revision === null
          ? 'Nothing plays.'
          : `It still plays revision ${engine.revision}; the next change is tried again.`),
    });
  }
  const fault = engine.last_fault;
  if (engine.state === 'running' && fault && fault.ms_ago <= RECENT_FAULT_MS) {
    const on = fault.culprit ? ` while playing ${fault.culprit.kind} '${fault.culprit.name}'` : '';
    const back =
      fault.restart_ms === null
        ? ''
        : `, and was playing again ${Math.round(fault.restart_ms)} ms later`;
    notices.push({
      key: 'fault',
      tone: 'warning',
      text:
        `The audio engine recovered from a fault ${ago(fault.ms_ago)}: thread ${fault.thread} ` +
        `failed${on} (${fault.reason})${back}. Restarts so far: ${engine.restarts}.`,
    });
  }
  return notices;
}
