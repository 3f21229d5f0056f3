'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { basePath } from '@/lib/base-path';
import { loadPagefind, type SearchHit, searchDocs } from '@/lib/pagefind';

type State =
  | { status: 'idle' }
  | { status: 'searching' }
  | { status: 'done'; hits: SearchHit[] }
  | { status: 'error'; message: string };

/** Strips the base path so next/navigation, which adds it back, gets a site path. */
function sitePath(url: string): string {
  return basePath && url.startsWith(basePath) ? url.slice(basePath.length) || '/' : url;
}

/** The search dialog over the Pagefind index of the exported docs; works offline. */
export default function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  const router = useRouter();
  const inputId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  useEffect(() => {
    const text = query.trim();
    if (text === '') {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState({ status: 'searching' });
    const timer = setTimeout(async () => {
      try {
        const hits = await searchDocs(await loadPagefind(), text);
        if (current) setState({ status: 'done', hits });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (current) setState({ status: 'error', message });
      }
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  return (
    <dialog
      ref={dialog}
      className="search-dialog"
      aria-labelledby={`${inputId}-label`}
      onClose={onClose}
      onKeyDown={(event) => {
        // A search field would take the first Escape to clear itself; close at once instead.
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
          return;
        }
        // Down and Up walk from the field through the results and back.
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        const stops = [
          ...event.currentTarget.querySelectorAll<HTMLElement>('input, .search-results a'),
        ];
        const at = stops.indexOf(document.activeElement as HTMLElement);
        const next = stops[at + (event.key === 'ArrowDown' ? 1 : -1)];
        if (at < 0 || !next) return;
        event.preventDefault();
        next.focus();
      }}
    >
      <form method="dialog" className="search-form" onSubmit={(event) => event.preventDefault()}>
        <label id={`${inputId}-label`} htmlFor={inputId} className="visually-hidden">
          Search the documentation
        </label>
        <input
          id={inputId}
          type="search"
          placeholder="Search the documentation"
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </form>
      <div className="search-results" aria-live="polite">
        {state.status === 'searching' ? <p>Searching…</p> : null}
        {state.status === 'error' ? (
          <p role="alert">Search is unavailable: {state.message}</p>
        ) : null}
        {state.status === 'done' && state.hits.length === 0 ? (
          <p>No pages match &ldquo;{query.trim()}&rdquo;.</p>
        ) : null}
        {state.status === 'done' && state.hits.length > 0 ? (
          <ul>
            {state.hits.map((hit) => (
              <li key={hit.url}>
                <a
                  href={hit.url}
                  onClick={(event) => {
                    event.preventDefault();
                    onClose();
                    router.push(sitePath(hit.url));
                  }}
                >
                  <span className="search-hit-title">{hit.title}</span>
                  <span
                    className="search-hit-excerpt"
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: Pagefind escapes excerpts and only adds <mark>
                    dangerouslySetInnerHTML={{ __html: hit.excerpt }}
                  />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </dialog>
  );
}
