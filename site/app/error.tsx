'use client';
import { useEffect } from 'react';

/**
 * A page that failed while rendering in the browser. The usual cause on a static site is a
 * script chunk that could not be loaded (an old tab after a deploy, a dropped connection), so
 * that case names the chunk and the failure; a reload fetches the current files.
 */
export default function PageError({ error, reset }: { error: Error; reset: () => void }) {
  useEffect(() => console.error(error), [error]);
  const chunk =
    error.name === 'ChunkLoadError' || /Loading (CSS )?chunk|chunk .* failed/i.test(error.message);
  return (
    <div className="page-narrow" role="alert">
      <h1>{chunk ? 'Part of this page could not be loaded' : 'This page failed to load'}</h1>
      <p>
        <strong>{chunk ? 'ChunkLoadError' : error.name}:</strong> {error.message}
      </p>
      <p className="hero-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
        <button type="button" className="button button-secondary" onClick={reset}>
          Try again
        </button>
      </p>
    </div>
  );
}
