'use client';
import { type ReactNode, useEffect } from 'react';
import { useDisclosure } from './use-disclosure';

/**
 * The top bar's links: always shown on wide screens, behind a Menu button on small ones.
 * The menu closes on Escape and when the reader navigates.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useDisclosure();
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, setOpen]);
  return (
    <>
      <button
        type="button"
        className="icon-button menu-button"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((value) => !value)}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path
            d={open ? 'M5 5l14 14M19 5L5 19' : 'M3 6h18M3 12h18M3 18h18'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        <span className="visually-hidden">Menu</span>
      </button>
      <div id="site-menu" className="site-menu" data-open={open}>
        {children}
      </div>
    </>
  );
}
