#!/usr/bin/env node
// The native suite: every test program of the workspace (`cargo test` with CARGO_TEST_ARGS),
// built once with --no-run, then run two at a time instead of cargo's one after another. Most of
// the time is spent waiting on real clocks (a sound server playing a tone for a minute, a sender
// paced at real time), not computing; one after another that was about 380 s of mostly idle CPU.
//
// ALONE first: the fidelity tests load both cores with stress-ng for part of their minute, and
// their figures are bounded by bench results measured with nothing else running. Then two lanes,
// each running its programs one at a time:
// - SOUND_SERVERS: the programs that start PulseAudio, PipeWire or JACK (two PulseAudio daemons side by
//   side once aborted on their own memory-pool assertion; one starved by stress-ng gapped);
// - every other program, the longest first (FIRST), then in cargo's order, then the doc tests.
// Each program's output is printed whole when it ends, under cargo's own `Running` line, so the
// suite's output reads (and is counted, test-results.mjs) as cargo's would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cargoMessages, testPrograms } from '../shared/cargo-artifacts.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What `cargo test` is asked, with the engine's fault injection (test builds only). */
export const CARGO_TEST_ARGS = [
  'test',
  '--workspace',
  '--no-fail-fast',
  '--features',
  'tributary-engine/fault-injection',
];

/** Programs (crate folder and target) that run a sound server: one lane, one at a time. */
export const SOUND_SERVERS = [
  'native/engine pulseaudio',
  'native/receive drift',
  'native/receive pulse_playback',
  'native/engine pipewire',
  'native/receive multicast',
  'native/send send_pulse',
  'native/send send_engine',
  'native/receive alsa_jack',
  'native/send send_alsa_jack',
];

/**
 * What, in a test file's source, starts a sound server: the engine's kit (`Pulse::start`,
 * `PipeWire::start`, a PulseAudio sender by `start_sender`) and the receiver's (`Session::start`,
 * `Jackd::start`: a JACK server). A test file that matches must be in SOUND_SERVERS or ALONE (a
 * scripts test checks).
 */
export const STARTS_A_SOUND_SERVER = /\b(?:Pulse|PipeWire|Session|Jackd)::start\(|\bstart_sender\(/;

/** Programs that run with nothing beside them, before the lanes. */
export const ALONE = ['native/engine fidelity'];

/** The other lane's longest program, started first so the two lanes end together. */
export const FIRST = ['native/engine lib'];

/** { alone, servers, others }: the programs in the order each part runs them. */
export function schedule(programs) {
  const key = (p) => `${p.crate} ${p.target}`;
  const rank = (list, p) => {
    const i = list.indexOf(key(p));
    return i < 0 ? list.length : i;
  };
  const byRank = (list) => (a, b) => rank(list, a) - rank(list, b);
  const alone = programs.filter((p) => ALONE.includes(key(p)));
  const servers = programs.filter((p) => SOUND_SERVERS.includes(key(p)));
  const others = programs.filter((p) => !ALONE.includes(key(p)) && !SOUND_SERVERS.includes(key(p)));
  // Array.prototype.sort is stable: cargo's order stays among equals.
  return {
    alone: alone.sort(byRank(ALONE)),
    servers: servers.sort(byRank(SOUND_SERVERS)),
    others: others.sort(byRank(FIRST)),
  };
}

/** Runs one command; resolves to { code, signal, output } with its stdout and stderr in order. */
function runCaptured(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) =>
      resolve({ code, signal, output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

/** Runs a lane's jobs one after another; returns the names of those that failed. */
async function runLane(jobs) {
  const failed = [];
  for (const job of jobs) {
    const started = Date.now();
    const r = await runCaptured(job.command, job.args, job.options);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let text = `${job.heading}\n${r.output}`;
    if (r.code !== 0) {
      failed.push(job.name);
      text += `error: ${job.name} failed (${r.signal ? `signal ${r.signal}` : `exit ${r.code}`}) after ${seconds} s\n`;
    }
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  return failed;
}

async function main() {
  // Build every test program (and the binaries the tests run) once; nothing runs yet.
  const building = Date.now();
  const programs = testPrograms(cargoMessages([...CARGO_TEST_ARGS, '--no-run'], root), root);
  const job = (p) => ({
    name: `${p.crate} ${p.target}`,
    heading: `     Running ${p.source} (${p.executable.slice(root.length)})`,
    command: p.executable,
    args: [],
    // As cargo runs a test program: from its crate's folder, told where that is.
    options: {
      cwd: `${root}${p.crate}`,
      env: { ...process.env, CARGO_MANIFEST_DIR: `${root}${p.crate}` },
    },
  });
  const { alone, servers, others } = schedule(programs);
  const doc = {
    name: 'doc tests',
    heading: '   Doc-tests (the workspace)',
    command: 'cargo',
    args: [...CARGO_TEST_ARGS, '--doc'],
    options: { cwd: root },
  };
  const running = Date.now();
  console.log(
    `built in ${((running - building) / 1000).toFixed(1)} s; ` +
      `${programs.length} test programs: ${alone.length} alone, then ${servers.length} with sound ` +
      `servers in one lane and ${others.length} and the doc tests in the other`,
  );
  const failed = [
    ...(await runLane(alone.map(job))),
    ...(await Promise.all([runLane(servers.map(job)), runLane([...others.map(job), doc])])).flat(),
  ];
  console.log(`ran in ${((Date.now() - running) / 1000).toFixed(1)} s`);
  if (failed.length > 0) {
    console.error(`${failed.length} test program(s) failed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
