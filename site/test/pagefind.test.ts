// Search results link the section that matches best, not the page's first match (issue 32:
// "systemd" led to the install page's #first-start instead of its service section).
import { describe, expect, test } from '@jest/globals';
import { bestSection, type PagefindApi, searchDocs } from '@/lib/pagefind';

const located = (...scores: number[]) =>
  scores.map((balanced_score, location) => ({ weight: 1, balanced_score, location }));

/** A Pagefind stand-in answering every query with `pages`. */
function api(pages: object[]): PagefindApi {
  return {
    options: async () => {},
    init: async () => {},
    search: async () => ({
      results: pages.map((page, i) => ({ id: String(i), data: async () => page })),
    }),
  } as unknown as PagefindApi;
}

describe('search hits', () => {
  test('a hit links the section whose words score highest (a heading match), not the first', async () => {
    const install = {
      url: '/docs/install-tributary/',
      excerpt: 'page excerpt',
      meta: { title: 'Install the Tributary server' },
      sub_results: [
        {
          title: 'First start',
          url: '/docs/install-tributary/#first-start',
          excerpt: 'The <mark>systemd</mark> unit below',
          weighted_locations: located(12.5),
        },
        {
          title: 'Run as a systemd service',
          url: '/docs/install-tributary/#run-as-a-systemd-service',
          excerpt: 'Run as a <mark>systemd</mark> service',
          weighted_locations: located(88.1, 12.5, 12.5),
        },
      ],
    };
    const hits = await searchDocs(api([install]), 'systemd');
    expect(hits).toEqual([
      {
        url: '/docs/install-tributary/#run-as-a-systemd-service',
        title: 'Install the Tributary server',
        excerpt: 'Run as a <mark>systemd</mark> service',
      },
    ]);
  });

  test('on a tie the earlier section wins; no sections: the page itself', () => {
    const a = { title: 'A', url: '/x/#a', excerpt: 'a', weighted_locations: located(5) };
    const b = { title: 'B', url: '/x/#b', excerpt: 'b', weighted_locations: located(5) };
    expect(bestSection([a, b])).toBe(a);
    expect(bestSection([])).toBeNull();
    expect(bestSection(undefined)).toBeNull();
  });
});
