// The slice of Pagefind's browser API the search dialog uses. The index and pagefind.js are
// written into out/pagefind/ after `next build` by the pagefind CLI, so they are loaded at run
// time from the exported site, never bundled.
import { withBasePath } from './base-path';

export interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
  /** Each matching word in the section with Pagefind's score for it (a heading's weighs more). */
  weighted_locations?: { weight: number; balanced_score: number; location: number }[];
}

export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  /** One per section (heading with an id) holding a match, in page order. */
  sub_results?: PagefindSubResult[];
}

export interface PagefindApi {
  options(options: { baseUrl?: string; excerptLength?: number }): Promise<void>;
  init(): Promise<void>;
  search(
    query: string,
  ): Promise<{ results: { id: string; data(): Promise<PagefindResultData> }[] }>;
}

let loading: Promise<PagefindApi> | null = null;

export function loadPagefind(): Promise<PagefindApi> {
  loading ??= (async () => {
    const api = (await import(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ withBasePath('/pagefind/pagefind.js')
    )) as PagefindApi;
    await api.options({ baseUrl: withBasePath('/'), excerptLength: 24 });
    await api.init();
    return api;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

export interface SearchHit {
  url: string;
  title: string;
  excerpt: string;
}

/**
 * The section that matches best: the highest sum of its words' scores (a match in its heading
 * counts most), the earlier on a tie. Not simply the first: "systemd" is mentioned in passing
 * early on the install page and is the subject of its "Run as a systemd service" section.
 */
export function bestSection(sections: PagefindSubResult[] | undefined): PagefindSubResult | null {
  let best: PagefindSubResult | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const section of sections ?? []) {
    const score = (section.weighted_locations ?? []).reduce((sum, w) => sum + w.balanced_score, 0);
    if (score > bestScore) {
      best = section;
      bestScore = score;
    }
  }
  return best;
}

/** The first `limit` hits for a query, each pointing at the best-matching section. */
export async function searchDocs(api: PagefindApi, query: string, limit = 8): Promise<SearchHit[]> {
  const { results } = await api.search(query);
  const data = await Promise.all(results.slice(0, limit).map((result) => result.data()));
  return data.map((page) => {
    const section = bestSection(page.sub_results);
    return {
      url: section?.url ?? page.url,
      title: page.meta.title ?? page.url,
      excerpt: section?.excerpt ?? page.excerpt,
    };
  });
}
