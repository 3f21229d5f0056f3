// A WHEP client (WebRTC-HTTP Egress Protocol) for listening to a sink: a recvonly offer with
// Opus asked for in stereo, POSTed to the daemon, its answer applied; DELETE ends it. Loaded
// only when someone presses Listen in Browser (kept out of the dashboard's first load).
import { WHEP_SINK_PATH } from '../app/paths';

/** How long to wait for the browser's own candidates before sending the offer anyway. */
const GATHER_MS = 1500;

export interface WhepListener {
  /** The received audio: play it in an <audio> element. */
  readonly stream: MediaStream;
  /** Ends the session (DELETE) and closes the connection. */
  stop(): Promise<void>;
}

/**
 * Chromium offers Opus as mono (no `stereo=1`), and decodes what it receives as mono then:
 * add `stereo=1; sprop-stereo=1` to the Opus fmtp line of the offer.
 */
export function preferStereo(sdp: string): string {
  const pt = /a=rtpmap:(\d+) opus\/48000/i.exec(sdp)?.[1];
  if (!pt) return sdp;
  return sdp.replace(new RegExp(`a=fmtp:${pt} ([^\\r\\n]*)`), (line, params: string) =>
    /(^|;)\s*stereo=1/.test(params) ? line : `a=fmtp:${pt} ${params};stereo=1;sprop-stereo=1`,
  );
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** Listens to sink `configId`; rejects with the daemon's message when it refuses. */
export async function listen(
  configId: string,
  iceServers: RTCIceServer[] = [],
): Promise<WhepListener> {
  const pc = new RTCPeerConnection({ iceServers });
  try {
    pc.addTransceiver('audio', { direction: 'recvonly' });
    const track = new Promise<MediaStreamTrack>((resolve) => {
      pc.addEventListener('track', (e) => resolve(e.track));
    });
    const offer = await pc.createOffer();
    await pc.setLocalDescription({ type: 'offer', sdp: preferStereo(offer.sdp ?? '') });
    await gathered(pc);
    const response = await fetch(`${WHEP_SINK_PATH}${encodeURIComponent(configId)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    const text = await response.text();
    if (response.status !== 201) {
      let message = `HTTP ${response.status}`;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {}
      throw new Error(message);
    }
    const session = response.headers.get('location');
    await pc.setRemoteDescription({ type: 'answer', sdp: text });
    const stream = new MediaStream([await track]);
    return {
      stream,
      async stop() {
        // DELETE first: closing the connection first may end the session before it arrives.
        try {
          if (session) await fetch(session, { method: 'DELETE', credentials: 'same-origin' });
        } finally {
          pc.close();
        }
      },
    };
  } catch (error) {
    pc.close();
    throw error;
  }
}
