import { afterEach, describe, expect, test } from '@jest/globals';
import { normaliseBasePath } from '@/lib/base-path';
import { canonicalUrl, siteUrl } from '@/lib/site-url';

afterEach(() => {
  delete process.env.SITE_URL;
});

describe('build-time URLs', () => {
  test('canonical links are absolute, and absent without SITE_URL', () => {
    expect(canonicalUrl('/docs/sap/')).toBeUndefined();
    process.env.SITE_URL = 'https://example.org/tributary';
    expect(canonicalUrl('/docs/install-rpi-sender/')).toBe(
      'https://example.org/tributary/docs/install-rpi-sender/',
    );
    expect(() => siteUrl('ftp://example.org')).toThrow(/http\(s\) URL/);
  });

  test('SITE_BASE_PATH must be a clean sub-path', () => {
    expect(normaliseBasePath(undefined)).toBe('');
    expect(normaliseBasePath('/')).toBe('');
    expect(normaliseBasePath(' /tributary ')).toBe('/tributary');
    expect(normaliseBasePath('/a/b')).toBe('/a/b');
    for (const bad of ['tributary', '/tributary/', '//x', '/a b', '/a?b']) {
      expect(() => normaliseBasePath(bad)).toThrow(/SITE_BASE_PATH/);
    }
  });
});
