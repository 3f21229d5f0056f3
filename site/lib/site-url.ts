// The public URL the site is deployed at (SITE_URL at build time, e.g.
// "https://tributary-audio.github.io/tributary"). Optional: without it pages carry no canonical
// links, since a canonical link must be absolute. Read on the server at build time only.

export function siteUrl(raw: string | undefined = process.env.SITE_URL): URL | undefined {
  if (!raw) return undefined;
  const url = new URL(raw.endsWith('/') ? raw : `${raw}/`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`SITE_URL must be an http(s) URL, got "${raw}"`);
  }
  return url;
}

/** The absolute canonical URL of a site path, or undefined without SITE_URL. */
export function canonicalUrl(sitePath: string): string | undefined {
  const base = siteUrl();
  return base ? new URL(sitePath.replace(/^\//, ''), base).href : undefined;
}
