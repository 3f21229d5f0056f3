// Where each card is on screen, for the route lines: cards register their element by config_id,
// and the lines are redrawn when one appears, goes, or changes size. A saved card is brought into
// view and highlighted (revealCard).
import { useCallback, useSyncExternalStore } from 'react';

const elements = new Map<string, HTMLElement>();
const listeners = new Set<() => void>();
let resize: ResizeObserver | null = null;

function changed(): void {
  for (const listener of listeners) listener();
}

export function cardElement(id: string): HTMLElement | undefined {
  return elements.get(id);
}

/** Called on every change of a card's presence or size (the lines redraw). */
export function onCardsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Cards to bring into view once they appear (a save answers before /ws/config brings them). */
const toReveal = new Map<string, number>();
/** How long a card asked to be revealed may take to appear (ms). */
const REVEAL_WAIT_MS = 5000;
/** How long a revealed card stays highlighted (ms). */
const HIGHLIGHT_MS = 2500;

function reveal(element: HTMLElement): void {
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
  element.setAttribute('data-revealed', '');
  setTimeout(() => element.removeAttribute('data-revealed'), HIGHLIGHT_MS);
}

/** Scrolls the card of `id` into view and highlights it, now or as soon as it appears. */
export function revealCard(id: string): void {
  const element = elements.get(id);
  if (element) reveal(element);
  else toReveal.set(id, Date.now() + REVEAL_WAIT_MS);
}

/** A ref callback that registers the card's element under its config_id. */
export function useCardRef(id: string): (element: HTMLElement | null) => void {
  return useCallback(
    (element: HTMLElement | null) => {
      resize ??= typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(changed);
      const previous = elements.get(id);
      if (previous && previous !== element) {
        resize?.unobserve(previous);
        elements.delete(id);
      }
      if (element) {
        elements.set(id, element);
        // The route lines find the card under the pointer or the focus by it.
        element.dataset.cardId = id;
        resize?.observe(element);
        const until = toReveal.get(id);
        if (until !== undefined) {
          toReveal.delete(id);
          // After layout, so the card is where it will stay.
          if (Date.now() <= until) requestAnimationFrame(() => reveal(element));
        }
      }
      changed();
    },
    [id],
  );
}

// The selected route (a click on its line) and the active source, shared by the cards.
function store<T>(initial: T, persistKey?: string) {
  let value = initial;
  if (persistKey) {
    try {
      value = (localStorage.getItem(persistKey) as T | null) ?? initial;
    } catch {}
  }
  const subs = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      if (persistKey) {
        try {
          localStorage.setItem(persistKey, String(next));
        } catch {}
      }
      for (const s of subs) s();
    },
    useValue(): T {
      return useSyncExternalStore(
        (listener) => {
          subs.add(listener);
          return () => subs.delete(listener);
        },
        () => value,
      );
    },
  };
}

/** config_id of the route whose line was clicked. */
export const selectedRoute = store<string>('');
/** config_id of the active source, remembered on this device. */
export const activeSource = store<string>('', 'tributary-active-source');
/** How the desktop shows the routes: cards with lines between them, or the matrix (remembered
 * on this device). */
export type RoutesView = 'lines' | 'matrix';
export const routesView = store<RoutesView>('lines', 'tributary-routes-view');
/** What is typed in the search (the top bar writes it, the panels filter by it). */
export const searchQuery = store<string>('');
