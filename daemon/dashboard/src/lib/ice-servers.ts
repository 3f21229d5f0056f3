// A sink's WebRTC ICE servers as the sink dialog edits them: one server a line,
// `URL[,URL...] [USERNAME [CREDENTIAL]]`, blank lines ignored. The API checks what comes out
// (the URL schemes, the lengths); this only translates text to the RTCIceServer list and back.
import type { WEBRTC_DEFAULTS } from '../api/schema';

export type IceServer = (typeof WEBRTC_DEFAULTS)['ice_servers'][number];

export function formatIceServers(servers: readonly IceServer[]): string {
  return servers
    .map((s) => {
      const urls = typeof s.urls === 'string' ? s.urls : s.urls.join(',');
      return [urls, s.username, s.credential].filter((part) => part !== undefined).join(' ');
    })
    .join('\n');
}

export function parseIceServers(text: string): IceServer[] {
  const servers: IceServer[] = [];
  for (const line of text.split('\n')) {
    const [first, username, ...rest] = line.trim().split(/\s+/);
    if (!first) continue;
    const list = first.split(',').filter(Boolean);
    const server: IceServer = { urls: list.length === 1 ? list[0]! : list };
    if (username !== undefined) server.username = username;
    // A credential may hold spaces: the rest of the line.
    if (rest.length > 0) server.credential = rest.join(' ');
    servers.push(server);
  }
  return servers;
}
