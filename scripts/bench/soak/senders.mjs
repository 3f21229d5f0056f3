// The soak's senders as processes: ffmpeg `-re` L16 RTP to an RTP source's port, ffmpeg RTP
// announced with SAP, PulseAudio's module-rtp-send, and the soak's Scream sender. Each can start,
// stop (SIGTERM: ffmpeg's SAP muxer and module-rtp-send send their deletion), restart (a new
// process: a new SSRC and source port; a SAP sender in its next format) and stall (SIGSTOP, then
// SIGCONT). Every action, and any exit the soak did not ask for, goes to the events
// log with its time.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { announcedPort, CONTROL, rtpPort, SAP_GROUP, SCREAM_PORT } from './house.mjs';
import { formatOf } from './schedule.mjs';

const screamSender = fileURLToPath(new URL('./scream-sender.mjs', import.meta.url));

/**
 * How sender `s` (index `i` in SENDERS) plays on its `n`th start: `{ cmd, args, env, dir }`
 * (`dir`: a folder of its own to remove when it ends, for PulseAudio). SAP senders take their
 * formats in turn, so a restart can change the rate and channels the SDP announces.
 */
export function senderCommand(s, i, n = 0) {
  if (s.kind === 'scream') {
    return {
      cmd: process.execPath,
      args: [screamSender, String(SCREAM_PORT), s.from, String(s.hz)],
    };
  }
  if (s.kind === 'pulse') return pulseCommand(s);
  const { rate, channels } = formatOf(s, n);
  const url =
    s.kind === 'rtp'
      ? `rtp://127.0.0.1:${rtpPort(i)}`
      : `sap://${SAP_GROUP}:${announcedPort(s)}?same_port=1`;
  return {
    cmd: 'ffmpeg',
    args: [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${s.hz}:sample_rate=${rate}`,
      '-ac',
      String(channels),
      '-c:a',
      'pcm_s16be',
      '-f',
      s.kind === 'rtp' ? 'rtp' : 'sap',
      url,
    ],
  };
}

/**
 * A PulseAudio of the sender's own, as the team guide runs one (`-n -F FILE.pa`, never exiting by
 * itself, `--system=false` as root), at real-time priority as a desktop's runs: a null sink
 * playing module-sine, sent by module-rtp-send to SAP_GROUP (loop=1: heard on this host), which
 * announces it with SAP. SIGTERM unloads the modules, and module-rtp-send says goodbye.
 */
function pulseCommand(s) {
  const dir = mkdtempSync(join(tmpdir(), `tributary-soak-${s.id}-`));
  const script = join(dir, 'sender.pa');
  writeFileSync(
    script,
    [
      `load-module module-native-protocol-unix auth-anonymous=1 socket=${join(dir, 'native')}`,
      'load-module module-null-sink sink_name=gen rate=48000 channels=2',
      `load-module module-sine sink=gen frequency=${s.hz}`,
      `load-module module-rtp-send source=gen.monitor destination_ip=${SAP_GROUP} port=${announcedPort(s)} loop=1 mtu=1164`,
      '',
    ].join('\n'),
  );
  return {
    cmd: 'chrt',
    args: [
      '-r',
      '10',
      'pulseaudio',
      '-n',
      '-F',
      script,
      '--exit-idle-time=-1',
      '--disallow-exit',
      '--system=false',
      '--daemonize=no',
      '--log-level=error',
    ],
    env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir },
    dir,
  };
}

/** One sender: its process while it plays. `log(type, fields)` records events; `commandFor`
 * gives the command of the n-th start (senderCommand; tests pass another). */
export class Sender {
  constructor(spec, index, log, commandFor = senderCommand) {
    this.spec = spec;
    this.index = index;
    this.log = log;
    this.commandFor = commandFor;
    this.child = null;
    this.stderr = '';
    this.stalled = null;
    /** How many times it was started (a SAP sender's format changes with each). */
    this.starts = 0;
  }

  #spawn() {
    const { cmd, args, env, dir } = this.commandFor(this.spec, this.index, this.starts);
    const format = formatOf(this.spec, this.starts);
    this.starts++;
    // Hang-ups ignored (the disposition survives the exec; the PID stays the sender's). A soak
    // started in the background by a shell that has since exited runs in an orphaned process
    // group, and whenever a process of that group exits while a member is stopped, the kernel
    // sends the whole group SIGHUP: a sender stalled by SIGSTOP died of it (ffmpeg takes
    // SIGHUP's default action) and stayed off the air for 99 s of a run.
    const child = spawn('/bin/sh', ['-c', 'trap "" HUP; exec "$0" "$@"', cmd, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? process.env,
    });
    if (dir) child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    child.format = format;
    // The Scream sender says when it paused itself ("late MS"): the sender's own outage.
    child.stdout.on('data', (c) => {
      for (const m of String(c).matchAll(/^late (\d+)$/gm)) {
        this.log('sender-late', { sender: this.spec.id, ms: Number(m[1]) });
      }
    });
    child.stderr.on('data', (c) => {
      this.stderr = (this.stderr + c).slice(-2000);
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      // Died in a stall: it stays off the air until started again (no SIGCONT to log).
      clearTimeout(this.stalled);
      this.stalled = null;
      this.log('sender-exit', { sender: this.spec.id, code, signal, stderr: this.stderr.trim() });
    });
    child.on('error', (err) => {
      this.stderr += `\n${err.message}`;
    });
    this.child = child;
    return child;
  }

  async #kill() {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (this.stalled) {
      clearTimeout(this.stalled);
      this.stalled = null;
      child.kill('SIGCONT');
    }
    const done = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await done;
    clearTimeout(timer);
  }

  start() {
    if (this.child) return;
    const child = this.#spawn();
    this.log('sender-start', { sender: this.spec.id, pid: child.pid, format: child.format });
  }

  async stop() {
    if (!this.child) return;
    this.log('sender-stop', { sender: this.spec.id });
    await this.#kill();
  }

  async restart() {
    if (!this.child) return this.start();
    this.log('sender-restart', { sender: this.spec.id });
    await this.#kill();
    const child = this.#spawn();
    this.log('sender-restarted', { sender: this.spec.id, pid: child.pid, format: child.format });
  }

  stall(ms) {
    if (!this.child || this.stalled) return;
    const child = this.child;
    child.kill('SIGSTOP');
    this.log('sender-stall', { sender: this.spec.id, ms });
    this.stalled = setTimeout(() => {
      this.stalled = null;
      child.kill('SIGCONT');
      this.log('sender-cont', { sender: this.spec.id });
    }, ms);
  }
}

/**
 * The machine's control: the same paced sender to a receiver of the soak's (house.mjs CONTROL),
 * never stopped; the gaps it shows are the machine's. Returns a stop function.
 */
export function startControl() {
  const child = spawn(
    process.execPath,
    [screamSender, String(CONTROL.port), CONTROL.from, '1000', CONTROL.ip],
    { stdio: 'ignore' },
  );
  return () => child.kill('SIGTERM');
}
