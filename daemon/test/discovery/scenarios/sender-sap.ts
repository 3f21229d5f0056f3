// `tributary send` (native/send, the built program) announces its RTP stream with SAP: the daemon
// adds it as a source in the announced format, the engine receives it, and the source goes when
// the sender, stopped with SIGTERM, sends its deletion.
import assert from 'node:assert/strict';
import { senderProgram } from '../../../src/commands/send.js';
import { startPulse } from '../../commands/pulse-server.js';
import { get, waitFor, withLab } from './lab.js';
import { routedSapConfig, type SapSource, type SourceStats } from './sap-peers.js';

const PORT = 40002;
// The listener's default cleanup_timeout (30 s): only the deletion can remove it in time.
const config = routedSapConfig(30);

export default () =>
  withLab(async (lab) => {
    const program = senderProgram();
    assert.ok(program, 'tributary-send is built');
    const server = await startPulse({ after: (fn) => lab.atEnd(fn) }, 'tx-sap');
    const daemon = await lab.daemon(config);
    const discovered = async () =>
      (await get<SapSource[]>(daemon, '/sources')).filter((s) => s.auto_added?.via === 'sap');
    const tx = lab.spawn(
      program,
      ['-h', '127.0.0.1', '-p', String(PORT), '-d', 'out.monitor', '-n', 'Den sender'],
      { PULSE_SERVER: server },
    );
    let t0 = performance.now();
    const added = await waitFor(
      'the announced stream to become a source',
      async () => (await discovered())[0],
      15_000,
      () => `${tx.output()}\n${daemon.output()}`,
    );
    const addMs = performance.now() - t0;
    const heard = await waitFor(
      'the engine to receive the stream',
      async () => {
        const stats = await get<SourceStats>(daemon, '/api/stats');
        const s = stats.sources.find((x) => x.name === added.name);
        return s && s.packets >= 100 ? s : undefined;
      },
      10_000,
      () => daemon.output(),
    );
    t0 = performance.now();
    const code = await tx.stop('SIGTERM');
    await waitFor(
      'the deleted stream to lose its source',
      async () => ((await discovered()).length === 0 ? true : undefined),
      5000,
      () => daemon.output(),
    );
    const removeMs = performance.now() - t0;
    return {
      add_ms: Math.round(addMs),
      remove_by_deletion_ms: Math.round(removeMs),
      exit_code: code,
      source: added,
      engine_format: heard.format,
      deleted_logged: /deleted by its sender/.test(daemon.output()),
      sender_output: tx.output(),
    };
  });
