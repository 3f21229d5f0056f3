// The slice of Pagefind's browser API the search dialog uses. The index and pagefind.js are
// written into out/pagefind/ after `next build` by the pagefind CLI, so they are loaded at run
// time from the exported site, never bundled.
import { withBasePath } from './base-path';

export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  sub_results?: { title: string; url: string; excerpt: string }[];
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

/** The first `limit` hits for a query, each pointing at the best-matching section. */
export async function searchDocs(api: PagefindApi, query: string, limit = 8): Promise<SearchHit[]> {
  const { results } = await api.search(query);
  const data = await Promise.all(results.slice(0, limit).map((result) => result.data()));
  return data.map((page) => {
    const section = page.sub_results?.[0];
    return {
      url: section?.url ?? page.url,
      title: page.meta.title ?? page.url,
      excerpt: section?.excerpt ?? page.excerpt,
    };
  });
}
