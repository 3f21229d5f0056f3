import type { Metadata } from 'next';
import { DocsPage } from '@/components/docs/docs-page';
import { loadDoc } from '@/lib/docs-content';
import { docHref, exportedSegments, resolveDocPath } from '@/lib/docs-nav';
import { canonicalUrl } from '@/lib/site-url';

interface Params {
  slug?: string[];
}

// Only the segments of content/nav.ts exist; the export has nothing else to render.
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return exportedSegments().map((segment) => ({ slug: segment === '' ? [] : [segment] }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const doc = resolveDocPath((await params).slug);
  const module = await loadDoc(doc.page.id);
  const title = module?.metadata?.title ?? doc.page.title;
  // Alias segments point search engines at the page's own segment.
  const canonical = canonicalUrl(docHref(doc.page.segment));
  return {
    title: doc.alias ? doc.alias.title : title,
    description:
      module?.metadata?.description ?? `Tributary documentation: ${doc.page.title.toLowerCase()}.`,
    ...(canonical ? { alternates: { canonical } } : {}),
  };
}

export default async function Page({ params }: { params: Promise<Params> }) {
  const doc = resolveDocPath((await params).slug);
  const module = await loadDoc(doc.page.id);
  return <DocsPage doc={doc} module={module} />;
}
