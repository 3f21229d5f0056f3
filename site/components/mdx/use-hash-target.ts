'use client';
import { useEffect, useRef } from 'react';

/**
 * Calls `reveal` with the element the URL's #fragment names, on load and on every hash change,
 * so a link into a closed tab, accordion item or <details> can open it. `reveal` returns true
 * when it changed something; the target is then scrolled into view after the re-render.
 */
export function useHashTarget(reveal: (target: HTMLElement) => boolean): void {
  const latest = useRef(reveal);
  latest.current = reveal;
  useEffect(() => {
    const onHash = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (target && latest.current(target)) {
        requestAnimationFrame(() => target.scrollIntoView());
      }
    };
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
}
