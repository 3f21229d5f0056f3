import type { Metadata } from 'next';
import Link from 'next/link';
import { DocsFallback } from '@/components/layout/docs-fallback';

export const metadata: Metadata = {
  title: 'Page not found',
  description: 'This page does not exist on the Tributary website.',
  robots: { index: false },
};

export default function NotFound() {
  return (
    <div className="page-narrow not-found">
      <DocsFallback />
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
  );
}
