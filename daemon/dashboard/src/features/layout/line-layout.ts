// Where the route lines' cards are, measured once and then followed through scrolling. Scrolling
// a panel moves its cards and nothing else, so a frame drawn for a scroll shifts the cards'
// measured boxes by how far their panel scrolled since (three scroll offsets read) instead of
// measuring every card again (a getBoundingClientRect per card and frame: at 32 sources, 16 sinks
// and 64 routes, the largest piece of script in a scrolling frame). Anything else that can move a
// card (a card appearing, going or changing size, anything in the panels shown or hidden, as the
// search does, a new configuration, a resize, a scroll of anything but a known panel, the panels
// or their container moving) forgets the measurements, and the next frame measures again.
import type { Box } from './line-geometry';

/** A card as the lines need it: its box, and the visible box of the panel it scrolls in. */
export interface Placed {
  readonly card: Box;
  readonly column: Box | undefined;
}

interface Measured {
  readonly card: Box;
  /** The panel it scrolls in, and that panel's scroll offsets when the card was measured. */
  readonly scroller: Element | null;
  readonly top: number;
  readonly left: number;
}

function sameBox(a: Box, b: Box): boolean {
  return a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
}

/** `box` moved by (dx, dy). */
export function shifted(box: Box, dx: number, dy: number): Box {
  return { left: box.left + dx, right: box.right + dx, top: box.top + dy, bottom: box.bottom + dy };
}

/** The offsets a panel scrolled by since `measured` was taken (positive: its content moved up or
 * left). */
function scrolledSince(measured: Measured, top: number, left: number) {
  return { dx: measured.left - left, dy: measured.top - top };
}

export class LineLayout {
  #origin: DOMRect | null = null;
  readonly #cards = new Map<string, Measured | null>();
  readonly #columns = new Map<Element, Box>();
  /** Each panel's scroll offsets, read once per frame. */
  readonly #offsets = new Map<Element, { top: number; left: number }>();
  /** How many frames measured every card (for the tests and the bench). */
  measures = 0;

  /** Forgets every measurement: the next frame measures again. */
  forget(): void {
    this.#origin = null;
    this.#cards.clear();
    this.#columns.clear();
  }

  /** Whether scrolling `target` only moves cards this layout can follow. */
  follows(target: EventTarget | null): boolean {
    return target !== null && this.#columns.has(target as Element);
  }

  /** Starts a frame: the container's box, panels' offsets read. The container and the panels
   * are measured every frame (four boxes, not 112): if one moved or changed size (a banner
   * appeared above them, a font loaded), every card is measured again. */
  frame(box: HTMLElement): DOMRect {
    this.#offsets.clear();
    const origin = box.getBoundingClientRect();
    if (this.#origin) {
      const moved =
        !sameBox(origin, this.#origin) ||
        [...this.#columns].some(([panel, was]) => !sameBox(panel.getBoundingClientRect(), was));
      if (moved) this.forget();
    }
    if (!this.#origin) {
      this.#origin = origin;
      this.measures++;
    }
    return this.#origin;
  }

  /** Where the card `element` (of `id`) is now, or undefined when it is hidden (the search). */
  place(id: string, element: HTMLElement | undefined): Placed | undefined {
    let measured = this.#cards.get(id);
    if (measured === undefined) {
      measured = this.#measure(element);
      this.#cards.set(id, measured);
    }
    if (!measured) return undefined;
    const { scroller } = measured;
    if (!scroller) return { card: measured.card, column: undefined };
    const now = this.#offset(scroller);
    const { dx, dy } = scrolledSince(measured, now.top, now.left);
    return { card: shifted(measured.card, dx, dy), column: this.#columns.get(scroller) };
  }

  #measure(element: HTMLElement | undefined): Measured | null {
    // A card the search hides (Column.tsx) has no line.
    if (!element || element.closest('[hidden]')) return null;
    const scroller = element.closest('.column-scroll');
    if (scroller && !this.#columns.has(scroller)) {
      this.#columns.set(scroller, scroller.getBoundingClientRect());
    }
    const { top, left } = scroller ? this.#offset(scroller) : { top: 0, left: 0 };
    return { card: element.getBoundingClientRect(), scroller, top, left };
  }

  #offset(scroller: Element): { top: number; left: number } {
    let offset = this.#offsets.get(scroller);
    if (!offset) {
      offset = { top: scroller.scrollTop, left: scroller.scrollLeft };
      this.#offsets.set(scroller, offset);
    }
    return offset;
  }
}
