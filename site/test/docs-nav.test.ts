import { navGroups, pageIds, segmentAliases } from '@content/nav';
import { describe, expect, test } from '@jest/globals';
import { docHref, exportedSegments, navPages, navProblems, resolveDocPath } from '@/lib/docs-nav';

// The recognised segments of the spec (section 2), install-{product} being install-tributary.
const specSegments = [
  'api',
  'install-tributary',
  'install-windows-app',
  'install-esp32',
  'install-windows-sender',
  'install-windows-receiver',
  'install-linux-receiver',
  'install-rpi-sender',
  'docker-sources',
  'rtp-configuration',
  'mp3-stream',
  'configuration',
  'ui',
  'homeassistant',
  'vnc',
  'plugins',
  'processor',
  'autoconfig',
  'scream-source',
  'rtp-source',
  'command_receiver',
  'windows-app',
  'esp32',
  'docker',
  'linux-receiver',
  'raspberry-pi',
  'android-receiver',
  'webrtc',
  'sap',
];

describe('content/nav.ts', () => {
  test('lists every page id exactly once with unique segments', () => {
    expect(navProblems()).toEqual([]);
    expect(navPages.map((page) => page.id).sort()).toEqual([...pageIds].sort());
  });

  test('has the sidebar groups of the spec, in order', () => {
    expect(navGroups.map((group) => group.title)).toEqual([
      'Overview',
      'API Reference',
      'Installation Guides',
      'Audio Sources',
      'User Guides',
      'Platforms',
      'Streaming Protocols',
      'Integration',
      'Advanced Topics',
    ]);
  });

  test('exports the overview, every recognised segment and install-raspberry-pi', () => {
    expect(new Set(exportedSegments())).toEqual(
      new Set(['', ...specSegments, 'install-raspberry-pi']),
    );
  });
});

describe('resolveDocPath', () => {
  test.each(specSegments.filter((s) => !(s in segmentAliases)))(
    '%s resolves to its own page',
    (segment) => {
      const doc = resolveDocPath([segment]);
      expect(doc.known).toBe(true);
      expect(doc.page.segment).toBe(segment);
      expect(doc.alias).toBeUndefined();
    },
  );

  test.each([[undefined], [[]], [['']]])('an empty path (%p) shows the overview', (slug) => {
    const doc = resolveDocPath(slug);
    expect(doc.page.id).toBe('overview');
    expect(doc.known).toBe(true);
    expect(doc.breadcrumbs).toEqual([]);
    expect(doc.previous).toBeUndefined();
    expect(doc.next?.id).toBe('api');
  });

  test.each([['no-such-page'], ['API'], ['install-'], ['%E2%9C%93'], ['%zz']])(
    'the unknown segment %s shows the overview',
    (segment) => {
      const doc = resolveDocPath([segment]);
      expect(doc.page.id).toBe('overview');
      expect(doc.known).toBe(false);
    },
  );

  test('the page is chosen by the last path segment', () => {
    expect(resolveDocPath(['guides', 'deep', 'sap']).page.id).toBe('sap');
    expect(resolveDocPath(['sap', 'unknown']).page.id).toBe('overview');
  });

  test('raspberry-pi shows the Linux receiver page and says so', () => {
    const doc = resolveDocPath(['raspberry-pi']);
    expect(doc.page.id).toBe('linux-receiver');
    expect(doc.alias?.note).toMatch(/Raspberry Pi/);
    expect(doc.segment).toBe('raspberry-pi');
  });

  test('install-raspberry-pi (the overview link) resolves to the Raspberry Pi sender page', () => {
    const viaLink = resolveDocPath(['install-raspberry-pi']);
    expect(viaLink.page.id).toBe('install-rpi-sender');
    expect(viaLink.known).toBe(true);
    expect(viaLink.alias?.note).toMatch(/Raspberry Pi sender/);
    expect(viaLink.alias?.title).toMatch(/Raspberry Pi sender page/);
    expect(viaLink.breadcrumbs.at(-1)?.label).toBe(viaLink.page.title);
  });

  test('install-rpi-sender (the recognised segment) is the same page, without the alias note', () => {
    const direct = resolveDocPath(['install-rpi-sender']);
    expect(direct.page).toBe(resolveDocPath(['install-raspberry-pi']).page);
    expect(direct.alias).toBeUndefined();
  });

  test('breadcrumbs read Docs > title, linking back to /docs/, except on the RTP guide', () => {
    for (const page of navPages) {
      const doc = resolveDocPath([page.segment]);
      if (page.id === 'overview' || page.id === 'rtp-configuration') {
        expect(doc.breadcrumbs).toEqual([]);
      } else {
        expect(doc.breadcrumbs).toEqual([{ label: 'Docs', href: '/docs/' }, { label: page.title }]);
      }
    }
  });

  test('previous and next walk the sidebar order', () => {
    let walked = [resolveDocPath([]).page.id];
    let doc = resolveDocPath([]);
    while (doc.next) {
      doc = resolveDocPath([doc.next.segment]);
      walked = [...walked, doc.page.id];
      expect(doc.previous).toBeDefined();
    }
    expect(walked).toEqual(navPages.map((page) => page.id));
    expect(doc.page.id).toBe('autoconfig');
  });

  test('hrefs carry the trailing slash of the export', () => {
    expect(docHref('')).toBe('/docs/');
    expect(docHref('sap')).toBe('/docs/sap/');
  });
});
