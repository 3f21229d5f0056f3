'use client';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { basePath } from '@/lib/base-path';
import { DOCS_FALLBACK_ATTRIBUTE, docsFallbackTarget, docsPathOf } from '@/lib/docs-fallback';

/** Gives up keeping the requested URL if the chosen page has not rendered by then. */
const RENDER_DEADLINE_MS = 30_000;

let started = false;

/**
 * On the 404 page at a docs URL: renders the docs page its last segment chooses and keeps the
 * requested URL (see lib/docs-fallback.ts). The router shows the page; once it has committed
 * (the address bar then reads the page's own URL), the requested URL is put back with
 * history.replaceState, which Next.js's router adopts without reloading anything.
 */
export function DocsFallback({ segments }: { segments: readonly string[] }) {
  const router = useRouter();
  useEffect(() => {
    const root = document.documentElement;
    const docsPath = docsPathOf(window.location.pathname, basePath);
    if (!docsPath || started) return;
    started = true;
    // Taken over from the inline script: its give-up timer leaves a non-empty value alone.
    root.setAttribute(DOCS_FALLBACK_ATTRIBUTE, 'resolving');
    const requested = window.location.href;
    const target = docsFallbackTarget(docsPath, segments);
    const targetPath = `${basePath}${target}`;
    const deadline = performance.now() + RENDER_DEADLINE_MS;
    const restoreUrl = () => {
      if (window.location.pathname === targetPath) {
        window.history.replaceState(null, '', requested);
        root.removeAttribute(DOCS_FALLBACK_ATTRIBUTE);
        const hash = decodeURIComponent(new URL(requested).hash.slice(1));
        if (hash) document.getElementById(hash)?.scrollIntoView();
        return;
      }
      if (performance.now() > deadline) {
        root.removeAttribute(DOCS_FALLBACK_ATTRIBUTE);
        return;
      }
      // A timer rather than an animation frame: it also runs in a tab opened in the background.
      setTimeout(restoreUrl, 10);
    };
    router.replace(target, { scroll: false });
    setTimeout(restoreUrl, 10);
  }, [router, segments]);
  return null;
}
