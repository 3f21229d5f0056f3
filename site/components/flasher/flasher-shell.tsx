'use client';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ChunkBoundary } from '@/components/chunk/chunk-boundary';
import { loadChunk } from '@/lib/chunk-loading';

// The flasher and its libraries (esptool-js, jszip) live in their own chunk, requested only
// once this page has mounted in the browser: no other page downloads them, and the static HTML
// carries just the page frame.
const FlasherApp = lazy(() => loadChunk('flasher', () => import('@/flasher/flasher-app')));

export function FlasherShell() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const loading = (
    <p role="status" className="chunk-loading">
      Loading the flasher…
    </p>
  );
  if (!mounted) return loading;
  return (
    <ChunkBoundary chunk="flasher">
      <Suspense fallback={loading}>
        <FlasherApp />
      </Suspense>
    </ChunkBoundary>
  );
}
