// The connection view (desktop): for every route, a curve from the source card's right edge to
// the route card and on to the sink card's left edge, coloured by state (playing, silent,
// disabled dashed). Drawn on one canvas in one animation frame after a scroll, a resize, a card
// change or a new state: no DOM per line, so scrolling 100 cards stays within a frame. A click
// on a line (in the gaps between the panels) selects its route; the line is a pointer shortcut,
// the route card is the accessible control.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLive } from '../../api/hooks';
import { type Box, emphasisOf, lineGeometry, linesOf } from './line-geometry';
import { cardElement, onCardsChange, selectedRoute } from './registry';

/** The other lines of a large house while one entity's are drawn in full. */
const FAINT_ALPHA = 0.15;

interface Drawn {
  readonly id: string;
  readonly path: Path2D;
}

export function RouteLines({ container }: { container: React.RefObject<HTMLElement | null> }) {
  const config = useLive((s) => s.config);
  const activity = useLive((s) => s.activity.routes);
  const selected = selectedRoute.useValue();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef(0);
  const drawn = useRef<Drawn[]>([]);
  /** The line under the pointer, the card under the pointer, the card holding the focus. */
  const hovered = useRef('');
  const pointed = useRef('');
  const focused = useRef('');
  const lines = config ? linesOf(config, activity) : [];

  const draw = () => {
    frame.current = 0;
    const box = container.current;
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!box || !element || !context) return;
    // Read every position first (one layout per frame), then draw.
    const origin = box.getBoundingClientRect();
    const boxes = new Map<string, { card: Box; column: Box | undefined }>();
    const columns = new Map<Element, Box>();
    const measure = (id: string) => {
      if (boxes.has(id)) return boxes.get(id);
      const card = cardElement(id);
      // A card the search hides (Column.tsx) has no line.
      if (!card || card.closest('[hidden]')) return undefined;
      const scroller = card.closest('.column-scroll');
      if (scroller && !columns.has(scroller))
        columns.set(scroller, scroller.getBoundingClientRect());
      const measured = {
        card: card.getBoundingClientRect(),
        column: scroller ? columns.get(scroller) : undefined,
      };
      boxes.set(id, measured);
      return measured;
    };
    const style = getComputedStyle(element);
    const colour = (name: string) => style.getPropertyValue(name).trim();
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(origin.width * ratio);
    const height = Math.round(origin.height * ratio);
    if (element.width !== width || element.height !== height) {
      element.width = width;
      element.height = height;
    }
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, origin.width, origin.height);
    const next: Drawn[] = [];
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
      const path = new Path2D(geometry.d);
      next.push({ id: line.id, path });
      const picked = line.id === selected || line.id === hovered.current;
      context.setLineDash(line.state === 'off' ? [5, 5] : []);
      context.globalAlpha =
        emphasis === 'faint'
          ? FAINT_ALPHA
          : emphasis === 'full' || line.state === 'playing' || line.state === 'problem'
            ? 1
            : line.state === 'off'
              ? 0.45
              : 0.55;
      context.strokeStyle = colour(
        line.state === 'playing'
          ? '--accent'
          : line.state === 'problem'
            ? '--danger'
            : '--text-muted',
      );
      context.lineWidth =
        emphasis === 'faint'
          ? 1.25
          : picked
            ? 4
            : emphasis === 'full'
              ? 3
              : line.state === 'playing'
                ? 2.5
                : 1.5;
      context.stroke(path);
      if (emphasis === 'full') full.push(line.id);
    }
    drawn.current = next;
    // What was drawn, for the tests and the bench: how many lines, and which in full.
    element.dataset.lines = String(next.length);
    element.dataset.focus = focus;
    element.dataset.full = full.join(' ');
  };
  const latest = useRef(draw);
  latest.current = draw;

  // Every render (new configuration or state) redraws; so do scrolls, resizes and card changes.
  useLayoutEffect(draw);
  useEffect(() => {
    const box = container.current;
    const element = canvas.current;
    if (!box || !element) return;
    const schedule = () => {
      if (frame.current === 0) frame.current = requestAnimationFrame(() => latest.current());
    };
    /** The line under the pointer, when the pointer is not on a card or a control. */
    const lineAt = (event: MouseEvent): string => {
      if ((event.target as Element).closest('.card, button, input, select, a, [role="menu"]'))
        return '';
      const context = element.getContext('2d');
      if (!context) return '';
      const origin = box.getBoundingClientRect();
      const x = event.clientX - origin.left;
      const y = event.clientY - origin.top;
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.setLineDash([]);
      context.lineWidth = 12;
      return drawn.current.findLast((d) => context.isPointInStroke(d.path, x, y))?.id ?? '';
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
    const stop = onCardsChange(schedule);
    box.addEventListener('scroll', schedule, { capture: true, passive: true });
    box.addEventListener('click', click);
    box.addEventListener('mousemove', move, { passive: true });
    box.addEventListener('mouseleave', leave);
    box.addEventListener('focusin', focusIn);
    box.addEventListener('focusout', focusOut);
    window.addEventListener('resize', schedule, { passive: true });
    return () => {
      stop();
      box.removeEventListener('scroll', schedule, { capture: true });
      box.removeEventListener('click', click);
      box.removeEventListener('mousemove', move);
      box.removeEventListener('mouseleave', leave);
      box.removeEventListener('focusin', focusIn);
      box.removeEventListener('focusout', focusOut);
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [container]);

  return <canvas ref={canvas} className="route-lines" />;
}

/** The config_id of the card `target` is in (registry.ts marks each card), or ''. */
function cardIdOf(target: EventTarget | null): string {
  return target instanceof Element
    ? (target.closest<HTMLElement>('[data-card-id]')?.dataset.cardId ?? '')
    : '';
}
