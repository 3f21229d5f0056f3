// Docs URLs the export has no file for (/docs/guides/api/, /docs/no-such-page/): a static host
// answers them with 404.html, whose page shows the docs page the last path segment chooses
// (spec: "the docs sub-page is chosen by the last path segment; an empty or unknown segment
// shows the overview") at the URL the reader asked for.
//
// Before anything paints, docsFallbackScript marks <html> so CSS hides the 404 text and shows a
// docs frame instead; once React runs, DocsFallback renders the chosen page through the router
// and puts the requested URL back in the address bar.

/** Set on <html> while a docs URL is being resolved on the 404 page. */
export const DOCS_FALLBACK_ATTRIBUTE = 'data-docs-fallback';

/** How long the frame waits for the page's scripts before the 404 text shows after all. */
export const DOCS_FALLBACK_GIVE_UP_MS = 15_000;

/** The site path (without base path) of a docs URL, or null for anything else. */
export function docsPathOf(pathname: string, basePath: string): string | null {
  if (!pathname.startsWith(`${basePath}/docs/`)) return null;
  return pathname.slice(basePath.length);
}

/**
 * The exported page a docs path shows: /docs/<last segment>/ when that segment is exported
 * (a page or an alias), else the overview at /docs/.
 */
export function docsFallbackTarget(docsPath: string, segments: readonly string[]): string {
  const last = docsPath.split('/').filter(Boolean).slice(1).at(-1) ?? '';
  let segment = last;
  try {
    segment = decodeURIComponent(last);
  } catch {
    // A malformed escape is just an unknown segment.
  }
  return segment !== '' && segments.includes(segment) ? `/docs/${segment}/` : '/docs/';
}

/**
 * Runs inline at the top of the 404 page, before it paints: on a docs URL it marks <html> so the
 * 404 text never shows, and unmarks it if the page's scripts have not taken over in time (a
 * broken deploy then still says "not found" instead of loading forever).
 */
export function docsFallbackScript(basePath: string): string {
  const prefix = JSON.stringify(`${basePath}/docs/`);
  const attribute = JSON.stringify(DOCS_FALLBACK_ATTRIBUTE);
  return `(function(){var d=document.documentElement;if(location.pathname.indexOf(${prefix})!==0)return;d.setAttribute(${attribute},'');setTimeout(function(){if(d.getAttribute(${attribute})==='')d.removeAttribute(${attribute})},${DOCS_FALLBACK_GIVE_UP_MS})})()`;
}
