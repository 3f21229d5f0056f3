import { describe, expect, test } from '@jest/globals';
import { proxiedUrl } from '@/flasher/releases/config';
import {
  changesFromBody,
  fetchReleases,
  toFirmwareReleases,
  versionFromTag,
} from '@/flasher/releases/releases';
import { fakeFetch } from './fake-fetch';

const source = {
  proxy: 'https://proxy.test/?url={url}',
  releasesUrl: 'https://api.github.com/repos/o/r/releases',
};
const listUrl = `https://proxy.test/?url=${encodeURIComponent(source.releasesUrl)}`;

describe('release versions and changes', () => {
  test('Version is the tag without "build-", first 7 characters', () => {
    expect(versionFromTag('build-3f9c2a7d1e0b')).toBe('3f9c2a7');
    expect(versionFromTag('v1.2.3')).toBe('v1.2.3');
    expect(versionFromTag('v1.20.300-beta')).toBe('v1.20.3');
    expect(versionFromTag('prebuild-abcdef123')).toBe('prebuil');
  });

  test('Changes comes from a compare link in the body, else "Initial release"', () => {
    expect(
      changesFromBody(
        '**Full Changelog**: https://github.com/o/r/compare/build-1111111aaaa...build-2222222bbbb',
      ),
    ).toBe('Changes from 1111111 to 2222222');
    expect(
      changesFromBody('See [diff](https://github.com/o/r/compare/v1.0.0..v1.1.0) for details'),
    ).toBe('Changes from v1.0.0 to v1.1.0');
    expect(changesFromBody('First build of the transceiver.')).toBe('Initial release');
    expect(changesFromBody(null)).toBe('Initial release');
    expect(changesFromBody('')).toBe('Initial release');
  });
});

describe('release list', () => {
  const raw = [
    { tag_name: 'build-aaaaaaa111', published_at: '2025-01-10T10:00:00Z', body: '', assets: [] },
    {
      tag_name: 'build-ccccccc333',
      published_at: '2025-03-01T08:00:00Z',
      body: 'x/compare/build-bbbbbbb...build-ccccccc',
      assets: [],
    },
    { tag_name: 'build-draft00', published_at: null, draft: true, assets: [] },
    { tag_name: 'build-bbbbbbb222', published_at: '2025-02-01T12:00:00Z', body: null, assets: [] },
    { tag_name: 'build-nodate00', published_at: null, assets: [] },
    { not: 'a release' },
  ];

  test('sorts newest first by published_at, undated last, drafts and junk left out', () => {
    const releases = toFirmwareReleases(raw);
    expect(releases.map((r) => r.version)).toEqual(['ccccccc', 'bbbbbbb', 'aaaaaaa', 'nodate0']);
    expect(releases[0]!.changes).toBe('Changes from bbbbbbb to ccccccc');
    expect(releases[1]!.changes).toBe('Initial release');
    expect(releases[0]!.publishedAt?.toISOString()).toBe('2025-03-01T08:00:00.000Z');
    expect(releases[3]!.publishedAt).toBeNull();
  });

  test('fetches through the proxy with the releases URL encoded as a query parameter', async () => {
    expect(proxiedUrl('https://p.test/?u={url}', 'https://x/y?a=1&b=2')).toBe(
      'https://p.test/?u=https%3A%2F%2Fx%2Fy%3Fa%3D1%26b%3D2',
    );
    expect(proxiedUrl('https://p.test/fetch?url=', 'https://x/')).toBe(
      'https://p.test/fetch?url=https%3A%2F%2Fx%2F',
    );
    const fetch = fakeFetch({ [listUrl]: { json: raw } });
    const releases = await fetchReleases(source, fetch);
    expect(fetch.calls).toEqual([listUrl]);
    expect(releases).toHaveLength(4);
  });

  test('a failed answer reads "Failed to fetch releases: {status} {statusText}"', async () => {
    const fetch = fakeFetch({ [listUrl]: { status: 503, statusText: 'Service Unavailable' } });
    await expect(fetchReleases(source, fetch)).rejects.toThrow(
      'Failed to fetch releases: 503 Service Unavailable',
    );
  });

  test('network failures and answers that are not a release list are errors too', async () => {
    await expect(
      fetchReleases(source, fakeFetch({ [listUrl]: { networkError: 'Failed to fetch' } })),
    ).rejects.toThrow('Failed to fetch releases: Failed to fetch');
    await expect(
      fetchReleases(source, fakeFetch({ [listUrl]: { json: { message: 'rate limited' } } })),
    ).rejects.toThrow('Failed to fetch releases: the answer is not a release list');
  });
});
