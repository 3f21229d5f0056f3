'use client';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ChunkBoundary } from '@/components/chunk/chunk-boundary';
import { loadChunk } from '@/lib/chunk-loading';

const SearchDialog = lazy(() => loadChunk('search', () => import('./search-dialog')));

function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/** The Search button; "/" or Ctrl+K (⌘K) opens it too. The dialog's code loads on first use. */
export function SearchLauncher() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut =
        (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey)) ||
        (event.key === '/' && !typingIn(event.target) && !event.ctrlKey && !event.metaKey);
      if (!shortcut) return;
      event.preventDefault();
      setRequested(true);
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        className="icon-button search-button"
        aria-keyshortcuts="/ Control+K"
        aria-haspopup="dialog"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
          <circle cx="10.5" cy="10.5" r="6.5" stroke="currentColor" strokeWidth="2" fill="none" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="search-label">Search</span>
        <span className="search-kbd" aria-hidden="true">
          /
        </span>
      </button>
      {requested ? (
        <ChunkBoundary chunk="search">
          <Suspense fallback={null}>
            <SearchDialog open={open} onClose={() => setOpen(false)} />
          </Suspense>
        </ChunkBoundary>
      ) : null}
    </>
  );
}
