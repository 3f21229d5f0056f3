// The base path the site is exported under ('' at the root of a host, '/tributary' under a
// sub-folder). Set at build time with SITE_BASE_PATH; next.config.ts validates it and exposes it
// to the browser bundle as NEXT_PUBLIC_BASE_PATH.

/** Validates a base path from the environment: '' or '/a/b' (leading slash, no trailing one). */
export function normaliseBasePath(raw: string | undefined): string {
  const value = (raw ?? '').trim();
  if (value === '' || value === '/') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-]$/.test(value) || value.includes('//')) {
    throw new Error(
      `SITE_BASE_PATH must look like "/docs-site" (leading slash, no trailing slash), got "${value}"`,
    );
  }
  return value;
}

export const basePath = process.env.NEXT_PUBLIC_BASE_PATH ?? '';

/**
 * Prefixes a site path for places Next.js does not rewrite itself (plain <a>, fetch, dynamic
 * import of files outside the bundle such as the Pagefind index). next/link adds it on its own.
 */
export function withBasePath(path: string): string {
  return `${basePath}${path}`;
}
