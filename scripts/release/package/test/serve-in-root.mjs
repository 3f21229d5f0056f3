// Runs an installed `tributary serve` in a throwaway root as a given user, the way its unit or
// image runs it, on 127.0.0.1 with ports the system picks (tests never bind the well-known
// ones), and talks HTTPS to it, trusting the certificate it generated.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

const LOCAL =
  'API_HOST=127.0.0.1 API_PORT=0 HTTP_PORT=off DISCOVERY=off ENGINE=on ENGINE_BIND=127.0.0.1 ' +
  'SCREAM_PORTS=0 SCREAM_TAGGED_PORT=off RTP_PORTS=off';

/**
 * Starts `command` (e.g. `/usr/bin/tributary serve`) as `user` with only `env` (NAME=value
 * words) and the local ports; resolves once it listens. `configDir` is where its certificate is.
 */
export async function serveInRoot(root, { user, env, command, configDir }) {
  const daemon = root.start(
    `cd / && exec setpriv --reuid=${user} --regid=${user} --init-groups env -i ${env} ${LOCAL} ${command}`,
  );
  let text = '';
  daemon.stdout.on('data', (c) => {
    text += c;
  });
  daemon.stderr.on('data', (c) => {
    text += c;
  });
  const exited = once(daemon, 'exit');
  const stop = async () => {
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGTERM');
    const [code] = await exited;
    return { code, output: text };
  };
  let api;
  try {
    api = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not listening after 60 s:\n${text}`)),
        60_000,
      );
      daemon.stdout.on('data', () => {
        const m = /API:\s+(https:\/\/127\.0\.0\.1:\d+)/.exec(text);
        if (m && /API token:/.test(text)) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      daemon.once('exit', (code) => reject(new Error(`exited with ${code}:\n${text}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const ca = readFileSync(root.changed(`${configDir}/tributary.crt`), 'utf8');
  const get = (path) =>
    new Promise((resolve, reject) => {
      request(`${api}${path}`, { ca }, (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
        .on('error', reject)
        .end();
    });
  return { get, stop };
}

/** The daemon answers as a whole: the engine plays (the addon loaded), the dashboard is served. */
export async function assertServes(assert, daemon) {
  const stats = await daemon.get('/api/stats');
  assert.equal(stats.status, 200);
  assert.equal(JSON.parse(stats.body).engine.state, 'running', 'the installed addon plays');
  const page = await daemon.get('/');
  assert.match(page.body, /<div id="root">/, 'the installed dashboard is served');
}
