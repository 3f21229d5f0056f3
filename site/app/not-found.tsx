import type { Metadata } from 'next';
import Link from 'next/link';
import { DocsSidebar } from '@/components/docs/docs-sidebar';
import { DocsFallback } from '@/components/layout/docs-fallback';
import { basePath } from '@/lib/base-path';
import { docsFallbackScript } from '@/lib/docs-fallback';
import { exportedSegments } from '@/lib/docs-nav';

export const metadata: Metadata = {
  title: 'Page not found',
  description: 'This page does not exist on the Tributary website.',
  robots: { index: false },
};

/**
 * The 404 page (404.html in the export). At a docs URL it shows the docs frame instead of the
 * 404 text from the first paint, then the page the last segment chooses (lib/docs-fallback.ts).
 */
export default function NotFound() {
  return (
    <>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed string from lib/docs-fallback.ts */}
      <script dangerouslySetInnerHTML={{ __html: docsFallbackScript(basePath) }} />
      <div className="docs-layout docs-fallback">
        <DocsSidebar />
        <div className="docs-article">
          <p role="status" className="chunk-loading">
            Loading the page…
          </p>
        </div>
      </div>
      <div className="page-narrow not-found">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>Sorry, the page you&apos;re looking for seems to have gone silent.</h1>
        <p>
          <Link href="/" className="button button-primary">
            Back to home
          </Link>
        </p>
      </div>
      <DocsFallback segments={exportedSegments()} />
    </>
  );
}
