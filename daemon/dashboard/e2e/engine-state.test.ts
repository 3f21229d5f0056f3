// The engine's troubles show in the dashboard: a source that keeps making the engine fail is
// quarantined (a banner with the engine's message, a chip on its card), the fault it recovered
// from is told, and a configuration the engine refused shows until a later one plays. The
// daemon runs in this process with the binding built with fault injection (the product's cannot
// fail on purpose), serving the built dashboard over HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EngineState, Engine as NativeEngine } from '@tributary/native';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../scripts/e2e/chromium.mjs';
import { app, fastifyOptions } from '../../src/app';
import { faultInjectingEngine } from '../../test/engine/fault-binding';
import { localEngine } from '../../test/helpers';
import { ensureBuilt, ready } from './harness/dashboard';

let fastify: FastifyInstance;
let browser: Browser;
let base: string;
let dir: string;
const sockets: Socket[] = [];

/** The fault-injecting engine, refusing to play a sink named 'Refused' although its check passes. */
function refusingEngine() {
  const Engine = faultInjectingEngine() as typeof NativeEngine;
  return class Refusing extends Engine {
    override apply(state: EngineState) {
      if (state.sinks.some((s) => s.name === 'Refused')) {
        throw new Error("sinks[1]: refused by the test's binding");
      }
      return super.apply(state);
    }
  };
}

async function udp(): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  socket.on('message', () => {});
  sockets.push(socket);
  return socket;
}

async function api(method: string, url: string, payload?: object) {
  const res = await fastify.inject({
    method: method as 'GET',
    url,
    ...(payload ? { payload } : {}),
  });
  return res.json();
}

before(async () => {
  ensureBuilt();
  const binding = refusingEngine();
  dir = mkdtempSync(join(tmpdir(), 'tributary-dashboard-engine-'));
  fastify = Fastify({ ...fastifyOptions, logger: false });
  await fastify.register(app, {
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    engine: localEngine,
    engineBinding: binding as never,
  });
  base = await fastify.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  for (const s of sockets) s.close();
  await browser?.close();
  await fastify?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('engine state', () => {
  test('a quarantined source, the fault it caused and a refused configuration are shown', async () => {
    const rx = await udp();
    await api('POST', '/sinks', { name: 'Out', ip: '127.0.0.1', port: rx.address().port });
    const pc = await api('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
    await api('POST', '/routes', { name: 'PC to Out', source: 'PC', sink: 'Out' });
    const port = (await api('GET', '/api/stats')).engine.ports.scream[0];

    const context = await browser.newContext({ baseURL: base });
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await ready(page);

    assert.ok(fastify.engine.injectFault('source-panic', pc.config_id, 1000));
    const tx = await udp();
    const packet = Buffer.alloc(5 + 1152);
    packet.set([0x01, 16, 2, 0x03, 0x00]);
    const timer = setInterval(() => tx.send(packet, port, '127.0.0.1'), 6);
    try {
      await page
        .getByRole('alert')
        .filter({
          hasText:
            "Left out of the audio: source 'PC' is quarantined: it made the engine fail 3 times",
        })
        .waitFor({ timeout: 10_000 });
    } finally {
      clearInterval(timer);
    }
    const chip = page.getByRole('article', { name: 'PC' }).locator('.chip[data-state="problem"]', {
      hasText: /^quarantined: source 'PC' is quarantined/,
    });
    await chip.waitFor();
    await page
      .getByRole('status')
      .filter({
        hasText:
          /The audio engine recovered from a fault \d+ s ago: thread trib-engine failed while playing source 'PC'/,
      })
      .waitFor();

    // A change lets it try again: the chip and the banner go.
    await api('PUT', '/sources/PC', { ip: '127.0.0.9' });
    await page.getByText("Left out of the audio: source 'PC'").waitFor({ state: 'detached' });
    await chip.waitFor({ state: 'detached' });

    const revision = (await api('GET', '/api/config')).revision;
    const added = await api('POST', '/sinks', { name: 'Refused', ip: '127.0.0.1', port: 4999 });
    assert.equal(added.name, 'Refused');
    const refused = page.getByRole('alert').filter({
      hasText: `The audio engine refused configuration revision ${revision + 1}: sinks[1]: refused by the test's binding. It still plays revision ${revision}`,
    });
    await refused.waitFor();
    await api('DELETE', '/sinks/Refused');
    await refused.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
