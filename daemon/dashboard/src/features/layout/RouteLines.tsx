// The connection view (desktop): for every route, a curve from the source card's right edge to
// the route card and on to the sink card's left edge, coloured by state (playing, silent,
// disabled dashed). Drawn on one canvas in one animation frame after a scroll, a resize, a card
// change or a new state: no DOM per line, so scrolling 100 cards stays within a frame; painted by
// a worker (lines-worker.ts) where the browser can hand it the canvas. A click
// on a line (in the gaps between the panels) selects its route; the line is a pointer shortcut,
// the route card is the accessible control.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLive } from '../../api/hooks';
import { emphasisOf, lineGeometry, linesOf } from './line-geometry';
import { LineLayout } from './line-layout';
import { type Picture, paint, type Stroke } from './line-paint';
import { cardElement, onCardsChange, selectedRoute } from './registry';

/** The other lines of a large house while one entity's are drawn in full. */
const FAINT_ALPHA = 0.15;

interface Drawn {
  readonly id: string;
  /** Its path, for the pointer's hit test. */
  readonly d: string;
}

/** Where the pointer's hit test strokes the lines (never shown). */
let hitContext: CanvasRenderingContext2D | null = null;

interface Painter {
  readonly paint: (picture: Picture) => void;
  readonly stop: () => void;
  closing?: ReturnType<typeof setTimeout>;
}

/** Each canvas's painter: a worker holding the canvas where the browser can hand it over
 * (OffscreenCanvas), else the page. A canvas is handed over once, so its painter outlives an
 * effect that React runs twice (StrictMode) and stops only when no effect took it back. */
const painters = new WeakMap<HTMLCanvasElement, Painter>();

function painterOf(element: HTMLCanvasElement): Painter {
  let painter = painters.get(element);
  if (!painter) {
    painter = newPainter(element);
    painters.set(element, painter);
  }
  clearTimeout(painter.closing);
  return painter;
}

function newPainter(element: HTMLCanvasElement): Painter {
  if (typeof element.transferControlToOffscreen === 'function' && typeof Worker === 'function') {
    try {
      const worker = new Worker(new URL('./lines-worker.ts', import.meta.url), {
        type: 'module',
      });
      const offscreen = element.transferControlToOffscreen();
      worker.postMessage({ canvas: offscreen }, [offscreen]);
      return { paint: (picture) => worker.postMessage(picture), stop: () => worker.terminate() };
    } catch {
      // No worker here: the page paints.
    }
  }
  return { paint: (picture) => paint(element, picture), stop: () => {} };
}

function release(element: HTMLCanvasElement): void {
  const painter = painters.get(element);
  if (!painter) return;
  clearTimeout(painter.closing);
  painter.closing = setTimeout(() => {
    painter.stop();
    painters.delete(element);
  });
}

export function RouteLines({ container }: { container: React.RefObject<HTMLElement | null> }) {
  const config = useLive((s) => s.config);
  const activity = useLive((s) => s.activity.routes);
  const selected = selectedRoute.useValue();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef(0);
  const drawn = useRef<Drawn[]>([]);
  const layout = useRef(new LineLayout()).current;
  /** The line under the pointer, the card under the pointer, the card holding the focus. */
  const hovered = useRef('');
  const pointed = useRef('');
  const focused = useRef('');
  const lines = config ? linesOf(config, activity) : [];

  const draw = () => {
    frame.current = 0;
    const box = container.current;
    const element = canvas.current;
    if (!box || !element) return;
    // Read every position first (one layout per frame), then paint. A frame drawn for a scroll
    // follows the cards measured before (line-layout.ts).
    const origin = layout.frame(box);
    // The layout keeps each card's measurement; a place is its box moved by this frame's scroll.
    const measure = (id: string) => layout.place(id, cardElement(id));
    const style = getComputedStyle(element);
    const colour = (name: string) => style.getPropertyValue(name).trim();
    // Three colours a frame, not one lookup per line.
    const colours = {
      playing: colour('--accent'),
      problem: colour('--danger'),
      other: colour('--text-muted'),
    };
    const next: Drawn[] = [];
    const strokes: Stroke[] = [];
    const full: string[] = [];
    const focus = hovered.current || pointed.current || focused.current || selected;
    // The focused entity's lines last, on top of the faint ones.
    const ordered = lines
      .map((line) => ({ line, emphasis: emphasisOf(line, focus, lines.length) }))
      .sort((a, b) => Number(a.emphasis === 'full') - Number(b.emphasis === 'full'));
    for (const { line, emphasis } of ordered) {
      const from = measure(line.from);
      const via = measure(line.id);
      const to = measure(line.to);
      if (!from || !via || !to) continue;
      const geometry = lineGeometry(origin, from, via, to);
      if (geometry.hidden) continue;
      next.push({ id: line.id, d: geometry.d });
      const picked = line.id === selected || line.id === hovered.current;
      strokes.push({
        d: geometry.d,
        dashed: line.state === 'off',
        alpha:
          emphasis === 'faint'
            ? FAINT_ALPHA
            : emphasis === 'full' || line.state === 'playing' || line.state === 'problem'
              ? 1
              : line.state === 'off'
                ? 0.45
                : 0.55,
        colour:
          line.state === 'playing'
            ? colours.playing
            : line.state === 'problem'
              ? colours.problem
              : colours.other,
        width:
          emphasis === 'faint'
            ? 1.25
            : picked
              ? 4
              : emphasis === 'full'
                ? 3
                : line.state === 'playing'
                  ? 2.5
                  : 1.5,
      });
      if (emphasis === 'full') full.push(line.id);
    }
    painterOf(element).paint({
      width: origin.width,
      height: origin.height,
      ratio: window.devicePixelRatio || 1,
      strokes,
    });
    drawn.current = next;
    // What was drawn, for the tests and the bench: how many lines, which in full, how often.
    element.dataset.lines = String(next.length);
    element.dataset.focus = focus;
    element.dataset.full = full.join(' ');
    element.dataset.draws = String(Number(element.dataset.draws ?? 0) + 1);
    element.dataset.measures = String(layout.measures);
  };
  const latest = useRef(draw);
  latest.current = draw;
  /** Draws in the next animation frame, once however many changes ask for it. */
  const schedule = useRef(() => {
    if (frame.current === 0) frame.current = requestAnimationFrame(() => latest.current());
  }).current;

  /** Redraws after something that may have moved cards: they are measured again. */
  const remeasure = useRef(() => {
    layout.forget();
    schedule();
  }).current;

  // Every render (new configuration, state, selection or search) redraws; so do scrolls, resizes
  // and card changes. In the frame that shows the change, once: drawing here at once cost a
  // forced style and layout per render, on top of the scroll's redraw in the same frame. A new
  // configuration may reorder cards: they are measured again. A new state or selection moves a
  // card only by resizing one, which the registry's ResizeObserver reports (onCardsChange).
  const measuredFor = useRef(config);
  useLayoutEffect(() => {
    if (measuredFor.current !== config) {
      measuredFor.current = config;
      layout.forget();
    }
    schedule();
  });
  useEffect(() => {
    const box = container.current;
    const element = canvas.current;
    if (!box || !element) return;
    /** The line under the pointer, when the pointer is not on a card or a control. */
    const lineAt = (event: MouseEvent): string => {
      if ((event.target as Element).closest('.card, button, input, select, a, [role="menu"]'))
        return '';
      // A context of its own: the canvas may be painted by the worker.
      hitContext ??= document.createElement('canvas').getContext('2d');
      const context = hitContext;
      if (!context) return '';
      const origin = box.getBoundingClientRect();
      const x = event.clientX - origin.left;
      const y = event.clientY - origin.top;
      context.lineWidth = 12;
      return (
        drawn.current.findLast((d) => context.isPointInStroke(new Path2D(d.d), x, y))?.id ?? ''
      );
    };
    const click = (event: MouseEvent) => {
      const id = lineAt(event);
      if (id) selectedRoute.set(id);
    };
    /** Sets one of the focus refs, redrawing when it changes. */
    const track = (ref: { current: string }, id: string) => {
      if (id === ref.current) return;
      ref.current = id;
      schedule();
    };
    const move = (event: MouseEvent) => {
      const id = lineAt(event);
      box.style.cursor = id ? 'pointer' : '';
      track(hovered, id);
      track(pointed, cardIdOf(event.target));
    };
    const leave = () => {
      track(hovered, '');
      track(pointed, '');
    };
    // The keyboard's path: a card's lines are in full while focus is in it.
    const focusIn = (event: FocusEvent) => track(focused, cardIdOf(event.target));
    const focusOut = (event: FocusEvent) => track(focused, cardIdOf(event.relatedTarget));
    // A panel's scroll moves only its cards, which the layout follows; any other scroll may
    // move anything.
    const scrolled = (event: Event) => (layout.follows(event.target) ? schedule() : remeasure());
    const stop = onCardsChange(remeasure);
    // Something shown or hidden in the panels (the search hides cards and headings, keeping
    // their layout, so no card resizes): the cards may have moved.
    const shownOrHidden = new MutationObserver(remeasure);
    shownOrHidden.observe(box, { attributes: true, attributeFilter: ['hidden'], subtree: true });
    box.addEventListener('scroll', scrolled, { capture: true, passive: true });
    box.addEventListener('click', click);
    box.addEventListener('mousemove', move, { passive: true });
    box.addEventListener('mouseleave', leave);
    box.addEventListener('focusin', focusIn);
    box.addEventListener('focusout', focusOut);
    window.addEventListener('resize', remeasure, { passive: true });
    return () => {
      stop();
      shownOrHidden.disconnect();
      box.removeEventListener('scroll', scrolled, { capture: true });
      box.removeEventListener('click', click);
      box.removeEventListener('mousemove', move);
      box.removeEventListener('mouseleave', leave);
      box.removeEventListener('focusin', focusIn);
      box.removeEventListener('focusout', focusOut);
      window.removeEventListener('resize', remeasure);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      release(element);
    };
  }, [container, schedule, remeasure, layout]);

  return <canvas ref={canvas} className="route-lines" />;
}

/** The config_id of the card `target` is in (registry.ts marks each card), or ''. */
function cardIdOf(target: EventTarget | null): string {
  return target instanceof Element
    ? (target.closest<HTMLElement>('[data-card-id]')?.dataset.cardId ?? '')
    : '';
}
