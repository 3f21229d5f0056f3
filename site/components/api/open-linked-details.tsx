'use client';
import { useEffect } from 'react';

/** Opens the <details> a #fragment points into (an operation or schema), on load and on change. */
export function OpenLinkedDetails() {
  useEffect(() => {
    const open = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      const details = target?.closest('details');
      if (!target || !details || details.open) return;
      details.open = true;
      target.scrollIntoView();
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);
  return null;
}
