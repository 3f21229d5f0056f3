import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, following changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => matchMedia(query).matches,
  );
}

/** Desktop: three columns with the route lines between them. */
export const DESKTOP = '(min-width: 1024px)';
