// The visualizer's place at the bottom of the dashboard: which sink it shows (the one the active
// source plays on unless chosen; or the active source itself, as it enters the routes), its style (H cycles waveform, spectrum, bars), and whether it
// is shown (remembered). The drawing itself (features/visualizer) loads only when shown, and
// only then does the engine measure the sink.
import { lazy, Suspense, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useLive } from '../../api/hooks';
import { ownsKey, SHORTCUTS } from '../../lib/shortcuts';
import { nextStyle, type VisualizerStyle } from '../visualizer/styles';
import type { VisualizerTarget } from '../visualizer/Visualizer';
import { useActiveSource } from './ActiveSource';

const Visualizer = lazy(() => import('../visualizer/Visualizer'));

const SHOWN_KEY = 'tributary-visualizer';
/** The select's value that stands for the active source (sinks' values are their ids). */
const ACTIVE_SOURCE = 'active-source';

function remembered(): boolean {
  try {
    return localStorage.getItem(SHOWN_KEY) !== 'hidden';
  } catch {
    return true;
  }
}

export function VisualizerSlot() {
  const active = useActiveSource();
  const sinks = useLive((s) => s.solved?.sinks);
  const [chosen, setChosen] = useState<string | null>(null);
  const [style, setStyle] = useState<VisualizerStyle>('waveform');
  const [shown, setShown] = useState(remembered);
  useHotkeys(SHORTCUTS.visualizer.keys, () => setStyle(nextStyle), {
    ignoreEventWhen: (e) => ownsKey(e.target, e.key),
    preventDefault: true,
  });
  const real = sinks ?? [];
  const followed = active
    ? real.find((s) => s.paths.some((p) => p.source_config_id === active.config_id))
    : undefined;
  const sink = real.find((s) => s.config_id === chosen) ?? followed ?? real[0];
  const showsSource = chosen === ACTIVE_SOURCE && active !== null && !active.is_group;
  const target: VisualizerTarget | undefined = showsSource
    ? { kind: 'source', configId: active.config_id, name: active.name }
    : sink && { kind: 'sink', configId: sink.config_id, name: sink.name };
  const show = (next: boolean) => {
    setShown(next);
    try {
      localStorage.setItem(SHOWN_KEY, next ? 'shown' : 'hidden');
    } catch {}
  };
  return (
    <section className="visualizer" aria-labelledby="visualizer-title" data-style={style}>
      <div className="visualizer-head">
        <h2 id="visualizer-title">Visualizer</h2>
        {shown && real.length > 0 && (
          <>
            <label className="visually-hidden" htmlFor="visualizer-sink">
              What the visualizer shows
            </label>
            <select
              id="visualizer-sink"
              className="visualizer-select"
              value={showsSource ? ACTIVE_SOURCE : (sink?.config_id ?? '')}
              onChange={(e) => setChosen(e.target.value)}
            >
              {active && !active.is_group && (
                <option value={ACTIVE_SOURCE}>{active.name} (active source)</option>
              )}
              {real.map((s) => (
                <option key={s.config_id} value={s.config_id}>
                  {s.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => setStyle(nextStyle(style))}
              aria-label={`Style: ${style} (H for the next)`}
            >
              {style[0]!.toUpperCase() + style.slice(1)}
            </button>
          </>
        )}
        <button
          type="button"
          className="button button-small button-secondary"
          aria-expanded={shown}
          aria-controls="visualizer-body"
          onClick={() => show(!shown)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      <div id="visualizer-body">
        {shown &&
          (target ? (
            <Suspense fallback={<p className="visualizer-note">Loading the visualizer…</p>}>
              <Visualizer target={target} style={style} />
            </Suspense>
          ) : (
            <p className="visualizer-note">
              Add a sink to see what it plays: its waveform, spectrum and levels.
            </p>
          ))}
      </div>
    </section>
  );
}
