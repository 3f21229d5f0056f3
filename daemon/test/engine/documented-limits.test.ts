// The engine's ranges and defaults are written once, in native/engine/src/limits.rs, and read
// by the daemon through `engineLimits()`. The prose that tells people about them (the daemon's
// README, the site's docs) cannot import them, so this test keeps those copies equal: change a
// default in the engine and the docs that still say the old one fail here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { engineLimits } from '@tributary/native';

const limits = engineLimits();
const repo = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repo), 'utf8');

/** The row of a Markdown table whose first cell is `name` (in backticks). */
function row(markdown: string, name: string): string {
  const line = markdown.split('\n').find((l) => l.startsWith(`| \`${name}\``));
  assert.ok(line, `a row for ${name}`);
  return line;
}

test('the daemon README states the engine’s defaults and ranges', () => {
  const readme = read('daemon/README.md');
  const range = `(${limits.jitterMinMs}-${limits.jitterMaxMs})`;
  const expected: [string, string][] = [
    ['SCREAM_PORTS', `\`${limits.defaultScreamPorts.join(',')}\``],
    ['SCREAM_TAGGED_PORT', `\`${limits.defaultTaggedPort}\``],
    ['RTP_PORTS', `\`${limits.defaultRtpPorts.join(',')}\``],
    ['JITTER_MIN_MS', `| ${limits.defaultJitterMinMs} ${range}`],
    ['JITTER_MAX_MS', `| ${limits.defaultJitterMaxMs} ${range}`],
  ];
  for (const [name, text] of expected) {
    assert.ok(row(readme, name).includes(text), `${name}: ${text}`);
  }
});

test('the site’s docs state the engine’s default ports and jitter range', () => {
  const [scream, second] = limits.defaultScreamPorts;
  const overview = read('content/docs/overview.mdx');
  assert.ok(
    overview.includes(
      `Receives Scream (UDP ${scream} and ${second}, per-application streams on ` +
        `${limits.defaultTaggedPort}) and RTP (UDP ${limits.defaultRtpPorts.join(', ')})`,
    ),
    'overview.mdx: the ports it receives on',
  );
  const esp32 = read('content/docs/esp32.mdx');
  assert.ok(
    esp32.includes(`adaptive from ${limits.jitterMinMs} to ${limits.jitterMaxMs} ms`),
    'esp32.mdx: the jitter buffer range',
  );
  // The page shows the port-mapping compose file: "A:A/udp" or "A-B:A-B/udp" entries.
  const docker = read('content/docs/docker.mdx');
  const published = [...docker.matchAll(/"(\d+)(?:-(\d+))?:(\d+)(?:-(\d+))?\/udp"/g)].map(
    (m) => [Number(m[3]), Number(m[4] ?? m[3])] as const,
  );
  for (const port of [...limits.defaultScreamPorts, limits.defaultTaggedPort]) {
    assert.ok(
      published.some(([from, to]) => from <= port && port <= to),
      `docker.mdx publishes ${port}/udp (published: ${JSON.stringify(published)})`,
    );
  }
});
