'use client';
import type { ReactNode } from 'react';
import { useDisclosure } from '@/components/layout/use-disclosure';

/** On small screens the docs navigation folds behind a button; wide screens always show it. */
export function SidebarToggle({ children }: { children: ReactNode }) {
  const [open, setOpen] = useDisclosure();
  return (
    <div className="docs-sidebar" data-open={open}>
      <button
        type="button"
        className="docs-sidebar-toggle"
        aria-expanded={open}
        aria-controls="docs-nav-panel"
        onClick={() => setOpen((value) => !value)}
      >
        Documentation menu
      </button>
      <div id="docs-nav-panel" className="docs-nav-panel">
        {children}
      </div>
    </div>
  );
}
