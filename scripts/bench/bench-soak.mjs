#!/usr/bin/env node
// `npm run bench -- soak`: a day of a house in an hour (issue 35). One daemon, as users run it,
// with discovery and the engine on, in a network namespace of its own, living through a scripted
// day: sixteen senders (ffmpeg -re RTP, ffmpeg RTP announced with SAP, PulseAudio's
// module-rtp-send, Scream senders) that start, stop, restart with a new SSRC (SAP senders in
// another rate and channel count) and stall; a configuration change every second through the API
// and a
// hand edit of config.yaml every sixth of the run; MP3 and WebSocket listeners (some never read)
// coming and going; a receiver on every sink. Every 10 s: RSS, heap, handles (from inside, a
// preload, after a full garbage collection), descriptors, threads, /api/stats latency and size, engine CPU and state, 5xx so far,
// config.yaml's validity. At the end: slopes after the warm-up against the bounds in
// soak/report.mjs, the gaps each monitored sink heard split into those a sender caused and the
// others, and the final configuration against the script's. Seeded: `--seed S` replays a day.
//   --minutes N (default 60) or --hours N (at most 24; the nightly workflow, .github/workflows/
//   soak.yml), --seed S (default 35), --out FILE (default bench/results/soak.json;
//   the events log goes beside it as FILE.events.jsonl; the plots of memory and descriptors to
//   content/docs/images/soak-memory.svg for the default FILE, else to FILE.svg), --dashboard (the dashboard open in
//   Chromium throughout), --report-only (exit 0 on a failed check).
// Needs root (unshare -n), ip, ffmpeg and pulseaudio; exits 2 when one is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFlags, resultsDir, root } from './bench-results.mjs';
import { WEBRTC_ADDRESS, WEBRTC_LINK } from './soak/house.mjs';

export const DEFAULTS = { minutes: 60, seed: 35, dashboard: false };

/** The options from argv; throws with a message on a bad one. */
export function soakOptions(argv) {
  const opts = { ...DEFAULTS, out: join(resultsDir, 'soak.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--minutes') {
      opts.minutes = Number(value());
      if (!(opts.minutes >= 1 && opts.minutes <= 24 * 60)) {
        throw new Error('--minutes must be a number from 1 to 1440');
      }
    } else if (a === '--hours') {
      const hours = Number(value());
      if (!(hours > 0 && hours <= 24))
        throw new Error('--hours must be a number above 0, at most 24');
      opts.minutes = Math.round(hours * 60);
    } else if (a === '--seed') {
      opts.seed = Number(value());
      if (!Number.isInteger(opts.seed) || opts.seed < 0 || opts.seed > 0xffffffff) {
        throw new Error('--seed must be an integer from 0 to 4294967295');
      }
    } else if (a === '--out') opts.out = resolve(value());
    else if (a === '--dashboard') opts.dashboard = true;
    else if (a !== '--json' && a !== '--report-only') throw new Error(`unknown option ${a}`);
  }
  return opts;
}

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why the soak cannot run here, or null. */
function unavailable() {
  if (process.getuid?.() !== 0)
    return 'the soak needs root (it runs in a network namespace: unshare -n)';
  const packages = {
    unshare: 'util-linux',
    ip: 'iproute2',
    ffmpeg: 'ffmpeg',
    pulseaudio: 'pulseaudio',
    chrt: 'util-linux',
  };
  for (const [tool, debian] of Object.entries(packages)) {
    if (!have(tool)) return `the soak needs ${tool} (Debian: ${debian})`;
  }
  if (!existsSync(join(root, 'daemon/dist/cli.js')))
    return 'build the daemon first: npm run build -w daemon';
  return null;
}

const SETUP = [
  'ip link set lo up',
  'ip link set lo multicast on',
  'ip route add 224.0.0.0/4 dev lo',
  // A veth pair: an interface Chromium gathers WebRTC host candidates on (with loopback only it
  // offers none, and the WHEP sessions were answered but never connected). Without the kernel's
  // veth the soak goes on and its WHEP sessions say so (no candidates).
  `{ ip link add ${WEBRTC_LINK} type veth peer name ${WEBRTC_LINK}p && ip addr add ${WEBRTC_ADDRESS}/24 dev ${WEBRTC_LINK} && ip link set ${WEBRTC_LINK} up && ip link set ${WEBRTC_LINK}p up || true; }`,
].join(' && ');

async function main() {
  let opts;
  try {
    opts = soakOptions(process.argv.slice(2));
  } catch (err) {
    console.error(
      `${err.message}: npm run bench -- soak [--minutes N | --hours N] [--seed S] [--out FILE] [--dashboard] [--report-only]`,
    );
    process.exit(2);
  }
  if (!process.env.TRIBUTARY_SOAK_NETNS) {
    const why = unavailable();
    if (why) {
      console.error(why);
      process.exit(2);
    }
    // Again, inside a network namespace of its own: only loopback (127.0.0.0/8) and multicast on it.
    const self = fileURLToPath(import.meta.url);
    const r = spawnSync(
      'unshare',
      [
        '-n',
        '--',
        'sh',
        '-c',
        `${SETUP} && exec "$0" "$@"`,
        process.execPath,
        self,
        ...process.argv.slice(2),
      ],
      { stdio: 'inherit', env: { ...process.env, TRIBUTARY_SOAK_NETNS: '1' } },
    );
    process.exit(r.status ?? 1);
  }
  const { runSoak } = await import('./soak/soak-run.mjs');
  const commit =
    spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || null;
  console.log(`soak: ${opts.minutes} min, seed ${opts.seed}, result to ${opts.out}`);
  const result = await runSoak({ ...opts, commit });
  // The plots: for the default result, the docs' image (the committed run's); else beside it.
  const { DEFAULT_PLOT, readRecord, soakPlotSvg } = await import('./soak/plot.mjs');
  const { besideResult } = await import('./soak/result-file.mjs');
  const plot =
    opts.out === join(resultsDir, 'soak.json') ? DEFAULT_PLOT : opts.out.replace(/\.json$/, '.svg');
  writeFileSync(plot, soakPlotSvg(readRecord(besideResult(opts.out, 'record'))));
  console.log(`plots: ${plot}`);
  const { reportOnly } = benchFlags();
  if (!result.passed) {
    console.error(
      `SOAK FAILED: ${result.verdicts
        .filter((v) => !v.ok && v.gated)
        .map((v) => v.name)
        .join('; ')}`,
    );
  }
  process.exit(result.passed || reportOnly ? 0 : 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
