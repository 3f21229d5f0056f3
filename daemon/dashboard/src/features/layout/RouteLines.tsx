// The connection view (desktop): for every route, a curve from the source card's right edge to
// the route card and on to the sink card's left edge, coloured by state (playing, silent,
// disabled dashed). Redrawn in one animation frame after a scroll, a resize, a card change or a
// new state, by setting the paths' geometry directly (no React render per scroll). A click on a
// line selects its route; the line is a pointer shortcut, the route card is the accessible control.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLive } from '../../api/hooks';
import type { Config } from '../../api/schema';
import { cardElement, onCardsChange, selectedRoute } from './registry';

interface Line {
  readonly id: string;
  readonly from: string;
  readonly via: string;
  readonly to: string;
}

function linesOf(config: Config): Line[] {
  const sources = new Map(config.sources.map((s) => [s.name, s.config_id]));
  const sinks = new Map(config.sinks.map((s) => [s.name, s.config_id]));
  return config.routes.flatMap((r) => {
    const from = sources.get(r.source);
    const to = sinks.get(r.sink);
    return from && to ? [{ id: r.config_id, from, via: r.config_id, to }] : [];
  });
}

/** The visible part of a card's vertical centre: clamped to its scrolling column. */
function anchor(element: HTMLElement, origin: DOMRect, side: 'left' | 'right') {
  const rect = element.getBoundingClientRect();
  const column = element.closest('.column-scroll')?.getBoundingClientRect();
  const top = column ? Math.max(rect.top, column.top) : rect.top;
  const bottom = column ? Math.min(rect.bottom, column.bottom) : rect.bottom;
  const hidden = bottom <= top;
  const y = hidden
    ? rect.top < (column?.top ?? 0)
      ? column!.top
      : column!.bottom
    : (top + bottom) / 2;
  return {
    x: (side === 'right' ? rect.right : rect.left) - origin.left,
    y: y - origin.top,
    hidden,
  };
}

function curve(a: { x: number; y: number }, b: { x: number; y: number }): string {
  const bend = Math.max(24, (b.x - a.x) / 2);
  return `M${a.x},${a.y} C${a.x + bend},${a.y} ${b.x - bend},${b.y} ${b.x},${b.y}`;
}

export function RouteLines({ container }: { container: React.RefObject<HTMLElement | null> }) {
  const config = useLive((s) => s.config);
  const activity = useLive((s) => s.activity.routes);
  const selected = selectedRoute.useValue();
  const svg = useRef<SVGSVGElement>(null);
  const frame = useRef(0);
  const lines = config ? linesOf(config) : [];
  const disabled = new Set(config?.routes.filter((r) => !r.enabled).map((r) => r.config_id));

  const draw = () => {
    frame.current = 0;
    const box = container.current;
    const root = svg.current;
    if (!box || !root) return;
    const origin = box.getBoundingClientRect();
    root.setAttribute('viewBox', `0 0 ${origin.width} ${origin.height}`);
    for (const group of Array.from(root.querySelectorAll<SVGGElement>('g[data-route]'))) {
      const line = lines.find((l) => l.id === group.dataset.route);
      const from = line && cardElement(line.from);
      const via = line && cardElement(line.via);
      const to = line && cardElement(line.to);
      if (!from || !via || !to) {
        group.style.display = 'none';
        continue;
      }
      const a = anchor(from, origin, 'right');
      const b = anchor(via, origin, 'left');
      const c = anchor(via, origin, 'right');
      const d = anchor(to, origin, 'left');
      const both = `${curve(a, b)} ${curve(c, d)}`;
      group.style.display = a.hidden && b.hidden && d.hidden ? 'none' : '';
      for (const path of Array.from(group.querySelectorAll('path'))) path.setAttribute('d', both);
    }
  };
  const latest = useRef(draw);
  latest.current = draw;

  // Every render (new configuration or state) redraws; so do scrolls, resizes and card changes.
  useLayoutEffect(draw);
  useEffect(() => {
    const box = container.current;
    const schedule = () => {
      if (frame.current === 0) frame.current = requestAnimationFrame(() => latest.current());
    };
    const stop = onCardsChange(schedule);
    box?.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    return () => {
      stop();
      box?.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [container]);

  return (
    <svg ref={svg} className="route-lines" aria-hidden="true">
      {lines.map((line) => {
        const state = disabled.has(line.id)
          ? 'off'
          : (activity.get(line.id)?.chip.state ?? 'silent');
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the route card is the accessible control
          <g
            key={line.id}
            data-route={line.id}
            data-state={state}
            data-selected={selected === line.id || undefined}
            onClick={() => selectedRoute.set(line.id)}
          >
            <path className="route-line-hit" />
            <path className="route-line" />
          </g>
        );
      })}
    </svg>
  );
}
