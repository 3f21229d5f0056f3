// No docs page, site page or dashboard string calls a built feature (content/built-features.ts,
// the one list of what is built) "planned" or "not built yet" (issue 32: the overview's cards
// called mDNS and SAP planned long after both worked).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { lineUnits, mdxUnits, notBuiltClaims } from '@/lib/feature-claims';

const root = path.join(__dirname, '..', '..');

/** Files under `dir` (relative to the repository) whose names end with one of `endings`. */
function files(dir: string, endings: string[]): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'test') walk(child);
      } else if (endings.some((e) => entry.name.endsWith(e)) && !/\.test\./.test(entry.name)) {
        out.push(child);
      }
    }
  };
  walk(dir);
  return out.sort();
}

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('built features are never called planned', () => {
  test('no docs page (content/docs/*.mdx) calls a built feature planned or not built yet', () => {
    const claims = files('content/docs', ['.mdx']).flatMap((f) =>
      notBuiltClaims(f, mdxUnits(read(f))),
    );
    expect(claims).toEqual([]);
  });

  test('no site page or dashboard string does', () => {
    const sources = [
      ...files('site/app', ['.tsx', '.ts']),
      ...files('site/components', ['.tsx']),
      ...files('daemon/dashboard/src', ['.tsx', '.ts']),
    ];
    expect(sources.length).toBeGreaterThan(50);
    const claims = sources.flatMap((f) => notBuiltClaims(f, lineUnits(read(f))));
    expect(claims).toEqual([]);
  });

  test('the check finds what the pages used to say (the overview before issue 28, a card by its title)', () => {
    const overview = [
      '<Cards>',
      '<Card title="Autoconfiguration (mDNS)" href="/docs/autoconfig/">',
      'Planned: receivers and senders that announce themselves and are added automatically.',
      '</Card>',
      '<Card title="SAP discovery" href="/docs/sap/">',
      'Find RTP streams announced on the network.',
      '</Card>',
      '</Cards>',
      '',
      '| MP3 streams, WebRTC, plugins, RTCP time sync | not built yet |',
      '',
      'Receivers are added by hand. Discovery by mDNS and SAP is planned. Routes work.',
    ].join('\n');
    const found = notBuiltClaims('overview.mdx', mdxUnits(overview)).map(
      (c) => `${c.at} ${c.feature}`,
    );
    expect(found).toEqual([
      'overview.mdx:2 mDNS autoconfiguration',
      'overview.mdx:10 MP3 streams over HTTP',
      'overview.mdx:10 WebRTC listening (Listen in Browser)',
      'overview.mdx:12 mDNS autoconfiguration',
      'overview.mdx:12 SAP discovery and announcement',
    ]);
    const dashboard =
      "<input {...form.check('rtp.sap')} /> SAP discovery <small>not built yet</small>";
    expect(notBuiltClaims('SourceDialog.tsx', lineUnits(dashboard))).toHaveLength(1);
    // What is not built may say so, in the sentence next to a built feature's.
    const fine = mdxUnits('The Android app is planned. SAP announces streams.');
    expect(notBuiltClaims('x.mdx', fine)).toEqual([]);
  });
});
