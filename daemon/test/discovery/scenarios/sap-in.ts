// ffmpeg announces an RTP stream over SAP: Tributary adds it as a source (into the group a
// route plays), the engine receives it, and the source goes when ffmpeg sends its deletion, or,
// when ffmpeg is killed, cleanup_timeout after its last announcement. A stream that moves
// (same origin and session id, new group and port) keeps its source.
import assert from 'node:assert/strict';
import { get, type Lab, waitFor, withLab } from './lab.js';
import {
  ffmpegToneSender,
  routedSapConfig,
  type SapSource,
  type SourceStats,
  sapSender,
} from './sap-peers.js';

const CLEANUP_S = 8;
const config = routedSapConfig(CLEANUP_S);
type Source = SapSource;
type Stats = SourceStats;

const ffmpegAnnouncing = (lab: Lab, port: number) =>
  ffmpegToneSender(lab, 60, 'sap', `sap://224.2.127.254:${port}?same_port=1`);

export default () =>
  withLab(async (lab) => {
    const daemon = await lab.daemon(config);
    const sources = () => get<Source[]>(daemon, '/sources');
    const discovered = async () => (await sources()).filter((s) => s.auto_added?.via === 'sap');

    // 1. ffmpeg announces; the source appears, joins the group and plays.
    let t0 = performance.now();
    const ffmpeg = ffmpegAnnouncing(lab, 5004);
    const added = await waitFor(
      'the announced stream to become a source',
      async () => {
        const [s] = await discovered();
        return s;
      },
      15_000,
      () => daemon.output() + ffmpeg.output(),
    );
    const addMs = performance.now() - t0;
    assert.equal(added.rtp?.listen_ip, '224.2.127.254');
    assert.equal(added.rtp?.port, 5004);
    assert.equal(added.rtp?.format, 'S16BE');
    const group = (await sources()).find((s) => s.name === 'SAP streams')!;
    assert.deepEqual(group.group_members, [added.name], 'it joined the group the route plays');
    const packets = await waitFor(
      'the engine to receive the stream',
      async () => {
        const stats = await get<Stats>(daemon, '/api/stats');
        const s = stats.sources.find((x) => x.name === added.name);
        return s && s.packets >= 100 ? s : undefined;
      },
      10_000,
      () => daemon.output(),
    );
    const playMs = performance.now() - t0;
    assert.match(packets.format ?? '', /L16 48000 Hz 2 ch/);

    // 2. ffmpeg stops (SIGTERM: it sends a deletion); the source goes at once.
    t0 = performance.now();
    await ffmpeg.stop('SIGTERM');
    await waitFor(
      'the deleted stream to lose its source',
      async () => ((await discovered()).length === 0 ? true : undefined),
      5000,
      () => daemon.output(),
    );
    const removeByDeletionMs = performance.now() - t0;
    assert.match(daemon.output(), /deleted by its sender/);
    const after = (await sources()).find((s) => s.name === 'SAP streams')!;
    assert.deepEqual(after.group_members, [], 'it left the group');

    // 3. ffmpeg killed (no deletion): the source goes cleanup_timeout after the last announcement.
    const killed = ffmpegAnnouncing(lab, 5006);
    await waitFor('the second stream', async () => (await discovered())[0], 15_000);
    await killed.stop('SIGKILL');
    t0 = performance.now();
    await waitFor(
      'the silent stream to lose its source',
      async () => ((await discovered()).length === 0 ? true : undefined),
      (CLEANUP_S + 8) * 1000,
    );
    const removeByTimeoutMs = performance.now() - t0;
    assert.ok(removeByTimeoutMs <= (CLEANUP_S + 2) * 1000, `${removeByTimeoutMs} ms`);

    // 4. A stream that moves keeps its source: same origin and session id, new group and port.
    const sap = await sapSender(lab, '239.255.255.255');
    const announce = (type: 'announce' | 'delete', payload: string, source: string) =>
      sap.send({ type, hash: payload.length * 7 + 1, source, payload });
    const sdp = (version: number, origin: string, group: string, port: number) =>
      `v=0\r\no=studio 3906185631 ${version} IN IP4 ${origin}\r\ns=Studio A\r\n` +
      `c=IN IP4 ${group}/32\r\nt=0 0\r\nm=audio ${port} RTP/AVP 98\r\na=rtpmap:98 L24/48000/2\r\n` +
      'a=ptime:1\r\na=ts-refclk:ptp=IEEE1588-2008:00-1D-C1-FF-FE-12-34-56:0\r\na=mediaclk:direct=0\r\n';
    await announce('announce', sdp(1, '10.77.0.9', '239.255.10.1', 5010), '10.77.0.9');
    const first = await waitFor('the AES67 stream', async () => (await discovered())[0], 5000);
    assert.equal(first.rtp?.format, 'L24');
    assert.equal(first.rtp?.listen_ip, '239.255.10.1');
    const listed = await get<{ sap: { streams: { refclk: string; ptime: number }[] } }>(
      daemon,
      '/api/discovery',
    );
    assert.equal(listed.sap.streams[0]?.refclk, 'ptp=IEEE1588-2008:00-1D-C1-FF-FE-12-34-56:0');
    await announce('announce', sdp(2, '10.77.0.10', '239.255.10.2', 5012), '10.77.0.10');
    const moved = await waitFor(
      'the stream to move',
      async () => {
        const [s] = await discovered();
        return s?.rtp?.listen_ip === '239.255.10.2' ? s : undefined;
      },
      5000,
    );
    assert.equal(moved.config_id, first.config_id, 'the same source follows the stream');
    assert.equal(moved.rtp?.port, 5012);
    assert.equal((await discovered()).length, 1);
    // Auto-added entries are marked in config.yaml: after a restart, one whose stream is not
    // heard again within cleanup_timeout goes; until then it stays.
    assert.equal(await daemon.stop('SIGTERM'), 0);
    const restarted = await lab.daemonIn(daemon.dir);
    const [kept] = (await get<Source[]>(restarted, '/sources')).filter(
      (s) => s.auto_added?.via === 'sap',
    );
    assert.equal(kept?.config_id, first.config_id, 'still there after the restart');
    t0 = performance.now();
    await waitFor(
      'the unheard source to go after the restart',
      async () =>
        (await get<Source[]>(restarted, '/sources')).some((s) => s.auto_added) ? undefined : true,
      (CLEANUP_S + 5) * 1000,
    );
    const removeAfterRestartMs = performance.now() - t0;
    assert.ok(removeAfterRestartMs > (CLEANUP_S - 3) * 1000, `${removeAfterRestartMs} ms`);

    // A deletion carrying only the o= line (RFC 2974 allows it).
    await announce('announce', sdp(3, '10.77.0.10', '239.255.10.2', 5012), '10.77.0.10');
    await waitFor(
      'the stream again',
      async () => (await get<Source[]>(restarted, '/sources')).find((s) => s.auto_added),
      5000,
    );
    await announce('delete', 'o=studio 3906185631 3 IN IP4 10.77.0.10\r\n', '10.77.0.10');
    await waitFor(
      'the deletion by origin',
      async () =>
        (await get<Source[]>(restarted, '/sources')).some((s) => s.auto_added) ? undefined : true,
      5000,
    );

    return {
      add_ms: Math.round(addMs),
      playing_ms: Math.round(playMs),
      remove_by_deletion_ms: Math.round(removeByDeletionMs),
      remove_by_timeout_ms: Math.round(removeByTimeoutMs),
      remove_after_restart_ms: Math.round(removeAfterRestartMs),
      cleanup_timeout_s: CLEANUP_S,
    };
  });
