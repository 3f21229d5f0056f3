'use client';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { basePath } from '@/lib/base-path';

/**
 * An unknown docs page shows the overview (spec: "an empty or unknown segment shows the
 * overview"). A static host answers such a URL with 404.html, so the 404 page sends docs URLs on
 * to /docs/; every other path keeps the 404.
 */
export function DocsFallback() {
  const router = useRouter();
  useEffect(() => {
    const path = window.location.pathname.slice(basePath.length);
    if (path.startsWith('/docs/') && path !== '/docs/') router.replace('/docs/');
  }, [router]);
  return null;
}
