// The visualizer's drawing (loaded only when shown): what one sink sends, from a `sink=ID`
// subscription on the page's /ws/levels socket (30 messages a second), or what the active source
// sends into the routes (`source=ID`), drawn on a canvas at the display's frame rate as a
// waveform, a spectrum or bars. Click for fullscreen; Esc leaves it.
import { useEffect, useRef, useState } from 'react';
import { levelSocket } from '../../api/levels';
import type { SinkLevels } from '../../api/schema';
import { formatDb } from '../../lib/levels';
import { draw, type Palette, type Trace } from './draw';
import type { VisualizerStyle } from './styles';

function palette(element: Element): Palette {
  const css = getComputedStyle(element);
  return {
    line: css.getPropertyValue('--playing').trim() || '#1d7044',
    grid: css.getPropertyValue('--border').trim() || '#ccc',
    text: css.getPropertyValue('--text-muted').trim() || '#666',
  };
}

/** What the visualizer shows: a sink, or a source (as it enters the routes). */
export interface VisualizerTarget {
  kind: 'sink' | 'source';
  configId: string;
  name: string;
}

export default function Visualizer(props: { target: VisualizerTarget; style: VisualizerStyle }) {
  const { style } = props;
  const { kind, configId, name } = props.target;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const readoutRef = useRef<HTMLSpanElement>(null);
  const styleRef = useRef(style);
  styleRef.current = style;
  const [full, setFull] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    let latest: SinkLevels | null = null;
    let colours = palette(canvas);
    let frame = 0;
    let last = performance.now();
    // Drawn again only when something changed: new levels (30 a second), the size, the theme,
    // the style, or bars still falling.
    let dirty = true;
    let drawnStyle = styleRef.current;
    const trace: Trace = { bars: [], caps: [] };
    const query = kind === 'sink' ? { sink: configId } : { source: configId };
    const unsubscribe = levelSocket().subscribe({ ...query, detail: 'full' }, (message) => {
      const all = kind === 'sink' ? message.sinks : message.sources;
      latest = all.find((s) => s.config_id === configId) ?? null;
      dirty = true;
      const readout = readoutRef.current;
      const text = latest?.peak.map((p) => formatDb(p)).join(' · ') || 'silent';
      if (readout && readout.textContent !== text) readout.textContent = text;
    });
    const resize = new ResizeObserver(() => {
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
      canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
      dirty = true;
    });
    resize.observe(canvas);
    const theme = new MutationObserver(() => {
      colours = palette(canvas);
      dirty = true;
    });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const tick = (now: number) => {
      const style = styleRef.current;
      const falling = style === 'bars' && trace.caps.some((c) => c > 0);
      if (!dirty && !falling && style === drawnStyle) {
        last = now;
        frame = requestAnimationFrame(tick);
        return;
      }
      dirty = false;
      drawnStyle = style;
      draw(
        context,
        canvas.width,
        canvas.height,
        styleRef.current,
        latest,
        colours,
        trace,
        (now - last) / 1000,
      );
      last = now;
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      unsubscribe();
      resize.disconnect();
      theme.disconnect();
    };
  }, [kind, configId]);

  useEffect(() => {
    if (!full) return;
    const section = canvasRef.current?.closest('.visualizer');
    const leave = () => {
      setFull(false);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && leave();
    const onChange = () => !document.fullscreenElement && setFull(false);
    section?.setAttribute('data-fullscreen', '');
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      section?.removeAttribute('data-fullscreen');
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onChange);
    };
  }, [full]);

  const enter = () => {
    if (full) return;
    setFull(true);
    const section = canvasRef.current?.closest('.visualizer');
    // The browser's fullscreen where it allows it; the page-filling layout either way.
    void section?.requestFullscreen?.().catch(() => undefined);
  };

  return (
    <>
      <p className="visualizer-readout">
        {name}: <span ref={readoutRef}>silent</span>
      </p>
      <button
        type="button"
        className="visualizer-canvas"
        aria-label={`${style[0]!.toUpperCase()}${style.slice(1)} of what ${name} ${kind === 'sink' ? 'plays' : 'sends'}: fullscreen`}
        onClick={enter}
      >
        <canvas ref={canvasRef} data-testid="visualizer-canvas" />
      </button>
      {full && (
        <button
          type="button"
          className="button button-small visualizer-leave"
          onClick={() => setFull(false)}
        >
          Leave fullscreen (Esc)
        </button>
      )}
    </>
  );
}
