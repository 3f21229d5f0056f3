// The soak's listeners: MP3 stream clients (GET /stream/SINK_IP/ on the plain HTTP port, as a
// player opens it, reading everything) and WebSocket clients of /ws/stats and /ws/levels, some of
// which never read a byte (a TLS socket that sends the upgrade and is paused at once: the
// daemon's send queue must bound what it keeps for them). Each leaves after its time; every join
// and leave goes to the events log.
import { request } from 'node:http';
import { connect } from 'node:tls';
import WebSocket from 'ws';
import { API_PORT, HTTP_PORT } from './house.mjs';

/** Live listeners, so the end of the run can close those still connected. */
const live = new Set();

/** An MP3 client of sink `ip` for `ms`. */
export function mp3Listener(ip, ms, log) {
  const id = `mp3-${ip}-${Math.round(performance.now())}`;
  let bytes = 0;
  const req = request(`http://127.0.0.1:${HTTP_PORT}/stream/${ip}/`, (res) => {
    log('mp3-open', { id, status: res.statusCode });
    res.on('data', (c) => {
      bytes += c.length;
    });
    res.on('error', () => {});
  });
  req.on('error', (err) => log('mp3-error', { id, error: err.message }));
  req.end();
  const leave = () => {
    live.delete(leave);
    clearTimeout(timer);
    req.destroy();
    log('mp3-leave', { id, bytes });
  };
  const timer = setTimeout(leave, ms);
  live.add(leave);
}

/** A WebSocket client of /ws/FEED for `ms`; `reads` false: one that never reads. */
export function wsListener(feed, reads, ms, ca, log) {
  const id = `ws-${feed}-${reads ? 'reader' : 'stalled'}-${Math.round(performance.now())}`;
  const path = `/ws/${feed}`;
  let leave;
  if (reads) {
    let messages = 0;
    const ws = new WebSocket(`wss://127.0.0.1:${API_PORT}${path}`, { ca });
    ws.on('message', () => {
      messages += 1;
    });
    ws.on('error', (err) => log('ws-error', { id, error: err.message }));
    ws.on('close', (code) => {
      if (live.has(leave)) log('ws-closed-by-daemon', { id, code, messages });
    });
    leave = () => {
      live.delete(leave);
      clearTimeout(timer);
      log('ws-leave', { id, messages });
      ws.terminate();
    };
  } else {
    const socket = connect({ host: '127.0.0.1', port: API_PORT, ca }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${API_PORT}\r\nUpgrade: websocket\r\n` +
          'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          'Sec-WebSocket-Version: 13\r\n\r\n',
      );
      socket.pause();
    });
    socket.on('error', (err) => log('ws-error', { id, error: err.message }));
    socket.on('close', () => {
      if (live.has(leave)) log('ws-closed-by-daemon', { id });
    });
    leave = () => {
      live.delete(leave);
      clearTimeout(timer);
      log('ws-leave', { id });
      socket.destroy();
    };
  }
  log('ws-join', { id, feed, reads });
  const timer = setTimeout(() => leave(), ms);
  live.add(leave);
}

/** Closes every listener still connected. */
export function closeListeners() {
  for (const leave of [...live]) leave();
}
