// The first-run instructions: commands that send audio to this server, filled in with its address
// and the engine's ports (the same commands the docs give, docs/install-windows-sender and
// docs/rtp-configuration).
import type { EngineStatus, NetworkInfo } from '../api/schema';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/i;

/**
 * The address senders should use: the engine's own when it is bound to one, else the name the
 * browser reached the server by (unless that is this machine's loopback), else its first LAN
 * address; `SERVER_IP` when none is known.
 */
export function senderAddress(network: NetworkInfo | null, pageHost: string): string {
  if (network?.engine_bind) return network.engine_bind;
  const host = pageHost.replace(/^\[|\]$/g, '');
  if (host && !LOOPBACK.test(host)) return host;
  return network?.addresses[0]?.address ?? (host || 'SERVER_IP');
}

export interface SenderPorts {
  readonly scream: number;
  readonly rtp: number;
}

/** The engine's ports (the documented defaults when it reports none: 4010 and 40000). */
export function senderPorts(engine: EngineStatus | null): SenderPorts {
  const scream = engine?.ports.scream ?? [];
  return {
    scream: scream.includes(4010) ? 4010 : (scream[0] ?? 4010),
    rtp: engine?.ports.rtp[0] ?? 40000,
  };
}

export interface SenderCommands {
  readonly windows: string;
  readonly ffmpeg: string;
  readonly pulseaudio: string;
}

export function senderCommands(address: string, ports: SenderPorts): SenderCommands {
  const rtpUrl = `rtp://${address.includes(':') ? `[${address}]` : address}:${ports.rtp}?pkt_size=1164`;
  const key = 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\Scream\\Options';
  return {
    windows: [
      `reg add ${key} /v UnicastIPv4 /t REG_SZ /d ${address} /f`,
      `reg add ${key} /v UnicastPort /t REG_DWORD /d ${ports.scream} /f`,
    ].join('\n'),
    ffmpeg: [
      'ffmpeg -f pulse -i @DEFAULT_MONITOR@ -ac 2 -ar 48000 -c:a pcm_s16be \\',
      `  -f rtp "${rtpUrl}"`,
    ].join('\n'),
    pulseaudio: [
      'pactl load-module module-null-sink sink_name=tributary \\',
      '  sink_properties=device.description=Tributary',
      'pactl load-module module-rtp-send source=tributary.monitor \\',
      `  destination_ip=${address} port=${ports.rtp} mtu=1152 ttl=32 \\`,
      '  format=s16be rate=48000 channels=2 loop=0',
    ].join('\n'),
  };
}
