// `--dashboard`: the dashboard open in Debian's Chromium throughout the soak (launched the one
// way, scripts/e2e/chromium.mjs), as a house's wall tablet would keep it: its WebSockets and
// polling live while the configuration churns. Uncaught page errors and console errors go to the
// events log; at the end the page must still answer. The same browser is the soak's WHEP
// listener: sessions that join a sink, count the RTP packets Chromium receives, and leave.
import { launchChromium } from '../../e2e/chromium.mjs';
import { API_PORT } from './house.mjs';

/** Opens the dashboard; resolves with { check(), close() }. */
export async function openDashboard(log) {
  // Loopback candidates: the soak's network namespace has nothing else.
  const browser = await launchChromium(['--allow-loopback-in-peer-connection']);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const pageErrors = [];
  let consoleErrors = 0;
  page.on('pageerror', (err) => {
    pageErrors.push(err.message.slice(0, 300));
    log('dashboard-page-error', { error: err.message.slice(0, 300) });
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    consoleErrors += 1;
    log('dashboard-console-error', { text: m.text().slice(0, 300) });
  });
  const url = `https://127.0.0.1:${API_PORT}/`;
  /** WHEP sessions still in the soak: each one's early leave, and its end. */
  const staying = new Set();
  const sessions = new Set();
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  log('dashboard-open', { url });
  return {
    /** Whether the page still answers (and how fast), with the errors it had. */
    async check() {
      const started = performance.now();
      const text = await page
        .evaluate(() => document.body.textContent.length)
        .catch((err) => {
          pageErrors.push(`no answer: ${err.message.slice(0, 200)}`);
          return null;
        });
      return {
        answers: text !== null && text > 0,
        ms: Math.round(performance.now() - started),
        pageErrors,
        consoleErrors,
      };
    },
    /** A WHEP session on sink `configId` for `ms`, in a page of its own (the daemon's origin,
     * so its POST is same-origin): logs whep-open with the answer's status, and whep-leave with
     * the packets received once it has sent DELETE. Resolves when it has left. */
    whep(configId, ms, id) {
      const session = whepSession(configId, ms, id).finally(() => sessions.delete(session));
      sessions.add(session);
      return session;
    },
    /** Ends every WHEP session now (DELETE each), before the browser closes. */
    async leaveWhep() {
      for (const leave of [...staying]) leave();
      await Promise.allSettled([...sessions]);
    },
    close: () => browser.close(),
  };

  async function whepSession(configId, ms, id) {
    const p = await context.newPage();
    try {
      await p.goto(`${url}api/stats`, { waitUntil: 'load', timeout: 30_000 });
      const { status, candidates } = await p.evaluate(joinWhep, configId);
      log('whep-open', { id, status, candidates });
      if (status !== 201) return;
      await new Promise((resolve) => {
        const leave = () => {
          clearTimeout(timer);
          staying.delete(leave);
          resolve();
        };
        const timer = setTimeout(leave, ms);
        staying.add(leave);
      });
      log('whep-leave', { id, ...(await p.evaluate(leaveWhep)) });
    } catch (err) {
      log('whep-error', { id, error: err.message.slice(0, 300) });
    } finally {
      await p.close().catch(() => {});
    }
  }
}

/** In the page: a recvonly offer POSTed to the daemon's WHEP endpoint, its answer applied. */
async function joinWhep(configId) {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('audio', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') resolve();
    });
    setTimeout(resolve, 1500);
  });
  const res = await fetch(`/api/whep/sink/${encodeURIComponent(configId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: pc.localDescription.sdp,
  });
  const text = await res.text();
  // The host candidates the browser offered (none: it found no network to use).
  const candidates = pc.localDescription.sdp
    .split('\n')
    .filter((l) => l.startsWith('a=candidate:')).length;
  if (res.status === 201) {
    await pc.setRemoteDescription({ type: 'answer', sdp: text });
    window.whep = { pc, session: res.headers.get('location') };
  } else pc.close();
  return { status: res.status, candidates };
}

/** In the page: the packets received, then DELETE and close. */
async function leaveWhep() {
  const { pc, session } = window.whep;
  let packets = 0;
  for (const r of (await pc.getStats()).values()) {
    if (r.type === 'inbound-rtp') packets += r.packetsReceived ?? 0;
  }
  const ice = pc.iceConnectionState;
  const status = session ? (await fetch(session, { method: 'DELETE' })).status : null;
  pc.close();
  return { packets, ice, deleted: status };
}
