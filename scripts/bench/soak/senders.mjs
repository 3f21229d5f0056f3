// The soak's senders as processes: ffmpeg `-re` L16 RTP to an RTP source's port, ffmpeg RTP
// announced with SAP, and the soak's Scream sender. Each can start, stop (SIGTERM: ffmpeg's SAP
// muxer sends its deletion), restart (a new process: a new SSRC and source port) and stall
// (SIGSTOP, then SIGCONT). Every action, and any exit the soak did not ask for, goes to the events
// log with its time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CONTROL, rtpPort, SAP_GROUP, SCREAM_FROM, SCREAM_PORT, sapPort } from './house.mjs';
import { SENDERS } from './schedule.mjs';

const screamSender = fileURLToPath(new URL('./scream-sender.mjs', import.meta.url));

/** The command that plays sender `s` (index `i` in SENDERS). */
export function senderCommand(s, i) {
  if (s.kind === 'scream') {
    return [process.execPath, [screamSender, String(SCREAM_PORT), SCREAM_FROM, String(s.hz)]];
  }
  const url =
    s.kind === 'rtp'
      ? `rtp://127.0.0.1:${rtpPort(i)}`
      : `sap://${SAP_GROUP}:${sapPort(SENDERS.filter((x) => x.kind === 'sap').indexOf(s))}?same_port=1`;
  return [
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${s.hz}:sample_rate=48000`,
      '-ac',
      '2',
      '-c:a',
      'pcm_s16be',
      '-f',
      s.kind === 'rtp' ? 'rtp' : 'sap',
      url,
    ],
  ];
}

/** One sender: its process while it plays. `log(type, fields)` records events. */
export class Sender {
  constructor(spec, index, log) {
    this.spec = spec;
    this.index = index;
    this.log = log;
    this.child = null;
    this.stderr = '';
    this.stalled = null;
  }

  #spawn() {
    const [cmd, args] = senderCommand(this.spec, this.index);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
    this.log('sender-start', { sender: this.spec.id, pid: child.pid });
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
    this.log('sender-restarted', { sender: this.spec.id, pid: child.pid });
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
