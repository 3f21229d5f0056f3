import type { MetadataRoute } from 'next';
import { canonicalUrl } from '@/lib/site-url';

export const dynamic = 'force-static';

export default function robots(): MetadataRoute.Robots {
  const sitemap = canonicalUrl('/sitemap.xml');
  return { rules: { userAgent: '*', allow: '/' }, ...(sitemap ? { sitemap } : {}) };
}
