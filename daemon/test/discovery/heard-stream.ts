// SAP streams as the listener keeps them once heard (the SDP parsed, the id it derives), for the
// tests that feed the reconciler and the discovery routes without a socket.
import { type SapStream, streamId } from '../../src/services/discovery/sap-listener.js';
import { parseStream } from '../../src/services/discovery/sdp.js';

/** `sdp` as announced from `sender` in a message with hash `hash`. */
export function heardStream(sdp: string, sender = '10.0.0.5', hash = 1): SapStream {
  const d = parseStream(sdp);
  return { ...d, id: streamId(d.origin, d), sap_source: sender, sender, hash };
}

/** An L16 48 kHz stereo stream (payload type 127) from 10.0.0.5, as PipeWire announces one. */
export function studioStream(
  port = 5004,
  group = '239.1.1.1',
  name = 'Studio',
  session = 77,
): SapStream {
  return heardStream(
    `v=0\no=pw ${session} 1 IN IP4 10.0.0.5\ns=${name}\nc=IN IP4 ${group}/32\nm=audio ${port} RTP/AVP 127\na=rtpmap:127 L16/48000/2\n`,
  );
}
