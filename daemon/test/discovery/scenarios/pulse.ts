// PulseAudio 16 as a peer of the SAP scenarios: a daemon of its own (a null sink, the native
// protocol on a private socket, `module-rtp-recv` listening for announcements), the streams it
// plays (its sink inputs) and a recording of one of them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Lab, leftChannel, type Peer, waitFor } from './lab.js';
import { measureTone, type Tone } from './tone.js';

/** One `module-rtp-recv` stream, as `pactl list sink-inputs` shows it. */
export interface PulseStream {
  readonly index: number;
  /** `s=` of the announcement. */
  readonly session: string;
  readonly payload: number;
  readonly channels: number;
  /** The rate PulseAudio resamples it from now: its own rate adaptation moves it by 2 per mille
   * steps every 5 s (the first one at the first packet). */
  readonly rate: number;
}

/** A tone PulseAudio played, with the frequency it heard in the stream (the frequency played,
 * less PulseAudio's rate adaptation: `played_hz` x the announced rate / the stream's rate). */
export interface PulseTone extends Tone {
  readonly played_hz: number;
  readonly rate: number;
}

export interface Pulse {
  readonly peer: Peer;
  streams(): Promise<PulseStream[]>;
  /** Waits until `count` announced streams play; fails with PulseAudio's output. */
  waitForStreams(count: number, timeoutMs?: number): Promise<PulseStream[]>;
  /**
   * Records what each stream in `wanted` plays (all at once, for `seconds`, its left channel)
   * and measures its tone; `rate` is the rate its announcement gave.
   */
  record(
    wanted: readonly { session: string; rate: number }[],
    seconds?: number,
  ): Promise<PulseTone[]>;
  /** Its output when it stopped, or null while it runs. */
  died(): string | null;
}

const field = (block: string, re: RegExp) => block.match(re)?.[1];

function parseStreams(text: string): PulseStream[] {
  return text
    .split(/^Sink Input #/m)
    .slice(1)
    .filter((b) => b.includes('module-rtp-recv'))
    .map((b) => ({
      index: Number(b.match(/^\d+/)?.[0]),
      session: field(b, /rtp\.session = "([^"]*)"/) ?? '',
      payload: Number(field(b, /rtp\.payload = "(\d+)"/)),
      channels: Number(field(b, /Sample Specification: \S+ (\d+)ch/)),
      rate: Number(field(b, /Sample Specification: \S+ \d+ch (\d+)Hz/)),
    }));
}

/** Starts PulseAudio (as root, in the namespace) with `module-rtp-recv` on 224.0.0.56. */
export async function startPulse(lab: Lab): Promise<Pulse> {
  const dir = lab.dir('tributary-pulse-');
  writeFileSync(
    join(dir, 'default.pa'),
    [
      `load-module module-native-protocol-unix auth-anonymous=1 socket=${dir}/native`,
      'load-module module-null-sink sink_name=out rate=48000',
      'set-default-sink out',
      'load-module module-rtp-recv sap_address=224.0.0.56',
      '',
    ].join('\n'),
  );
  const env = { HOME: dir, XDG_RUNTIME_DIR: dir, PULSE_RUNTIME_PATH: dir };
  // GStreamer's registry, and the plugins module-rtp-recv loads, read once, as on a desktop.
  // Without the registry PulseAudio scans every plugin when the first stream starts, after it has
  // bound the stream's socket (241 to 563 ms here, against 12 to 40 ms with it), and 16.1
  // aborts when more than 64 KiB piled up meanwhile (rtp-gstreamer.c:659; the RTP guide's
  // troubleshooting).
  for (const element of ['udpsrc', 'rtpbin', 'rtpL16depay', 'appsink']) {
    await lab.spawn('gst-inspect-1.0', [element], env).exited();
  }
  const peer = lab.spawn(
    'pulseaudio',
    [
      '-n',
      '-F',
      join(dir, 'default.pa'),
      '--exit-idle-time=-1',
      '--disallow-exit',
      '--system=false',
      '--daemonize=no',
    ],
    env,
  );
  const server = { ...env, PULSE_SERVER: `unix:${dir}/native` };
  let exit: string | null = null;
  peer.child.on('exit', (code, signal) => {
    exit = `PulseAudio exited (code ${code}, signal ${signal}):\n${peer.output().slice(-3000)}`;
  });
  const streams = async () => {
    const list = lab.spawn('pactl', ['list', 'sink-inputs'], server);
    await list.exited();
    return parseStreams(list.output());
  };
  const pulse: Pulse = {
    peer,
    streams,
    died: () => exit,
    waitForStreams: (count, timeoutMs = 15_000) =>
      waitFor(
        `PulseAudio to play ${count} announced streams`,
        async () => {
          if (exit) throw new Error(exit);
          const s = await streams();
          return s.length >= count ? s : undefined;
        },
        timeoutMs,
        () => peer.output().slice(-3000),
      ),
    async record(wanted, seconds = 2) {
      // Its rate adaptation changes a stream's rate every 5 s: keep a recording made between
      // two readings that agree (three tries).
      for (let attempt = 1; ; attempt++) {
        const find = (list: PulseStream[], session: string) => {
          const s = list.find((x) => x.session === session);
          if (!s) throw new Error(`PulseAudio plays no stream '${session}'\n${exit ?? ''}`);
          return s;
        };
        const before = await streams();
        const recordings = wanted.map(({ session }) => {
          const rec = lab.spawn(
            'parec',
            [
              `--monitor-stream=${find(before, session).index}`,
              '--format=s16le',
              '--rate=48000',
              '--channels=2',
              // Delivered as played, not in 2 s fragments (parec's default).
              '--latency-msec=50',
              '--raw',
            ],
            server,
          );
          const chunks: Buffer[] = [];
          rec.child.stdout!.on('data', (c: Buffer) => chunks.push(c));
          return { rec, chunks };
        });
        await sleep(seconds * 1000 + 300);
        await Promise.all(recordings.map((r) => r.rec.stop('SIGTERM')));
        const after = await streams();
        const steady = wanted.every(
          ({ session }) => find(before, session).rate === find(after, session).rate,
        );
        if (!steady && attempt < 3) continue;
        return wanted.map(({ session, rate }, i) => {
          const pcm = Buffer.concat(recordings[i]!.chunks);
          if (pcm.length < 48000 * 4) {
            throw new Error(`parec recorded ${pcm.length} bytes of '${session}'`);
          }
          // Its last 2 s: the start of a monitor stream can hold audio rendered before the rate
          // read first (a played frequency halfway between two rates was seen once).
          const tone = measureTone(leftChannel(pcm, 2), 48000);
          const pulseRate = find(after, session).rate;
          return { ...tone, played_hz: tone.hz, hz: (tone.hz * rate) / pulseRate, rate: pulseRate };
        });
      }
    },
  };
  return pulse;
}
