import type { MetadataRoute } from 'next';
import { docHref, navPages } from '@/lib/docs-nav';
import { canonicalUrl } from '@/lib/site-url';

export const dynamic = 'force-static';

/** Every page at its canonical address; empty unless SITE_URL says where the site lives. */
export default function sitemap(): MetadataRoute.Sitemap {
  const paths = ['/', '/downloads/', '/esp32-flasher/', ...navPages.map((p) => docHref(p.segment))];
  return paths.flatMap((path) => {
    const url = canonicalUrl(path);
    return url ? [{ url }] : [];
  });
}
