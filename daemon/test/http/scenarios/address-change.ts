// Run by address-change.test.ts inside a network namespace of its own (`unshare -n`, root): the
// app answers a Host naming an address the machine does not have with 421, then, once that
// address is added to an interface while it runs (as DHCP would), with 200 at once, and with
// 421 again once it is gone (after the addresses are next read, within 5 s). Prints
// `RESULT {json}`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { app, fastifyOptions } from '../../../src/app.js';
import { MACHINE_NAMES_MAX_AGE_MS } from '../../../src/http/server-names.js';

const ADDRESS = '10.99.0.5';
const dir = mkdtempSync(join(tmpdir(), 'tributary-address-'));
const fastify = Fastify({ ...fastifyOptions, logger: false });
await fastify.register(app, {
  configPath: join(dir, 'config.yaml'),
  equalizerPath: join(dir, 'equalizers.yaml'),
});
await fastify.ready();
const status = async (host: string) =>
  (await fastify.inject({ url: '/api/health', headers: { host } })).statusCode;
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'inherit' });

const before = await status(`${ADDRESS}:8443`);
ip('addr', 'add', `${ADDRESS}/24`, 'dev', 'lo');
const added = await status(`${ADDRESS}:8443`);
ip('addr', 'del', `${ADDRESS}/24`, 'dev', 'lo');
await sleep(MACHINE_NAMES_MAX_AGE_MS + 200);
const removed = await status(`${ADDRESS}:8443`);
await fastify.close();
rmSync(dir, { recursive: true, force: true });
console.log(`RESULT ${JSON.stringify({ before, added, removed })}`);
