// The route matrix (desktop, for large houses): sources down, sinks across, one cell per pair
// showing whether a route joins them and its state. A cell is a toggle: on an empty cell it
// creates the route (named after the pair, as a drag does), on a routed one it deletes the
// pair's route(s) with Undo. One tab stop; the arrow keys, Home/End and PageUp/PageDown move in
// the grid (the ARIA grid pattern), Space or Enter toggles, and the toast says what was done.
import { memo, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { useLive } from '../../api/hooks';
import type { Route, Sink, Source } from '../../api/schema';
import { type Cell, moveCell, pairKey, routesByPair } from '../../lib/matrix';
import { toastError } from '../../ui/toasts';
import { connect, deleteWithUndo } from '../entities/actions';

interface Props {
  /** The rows and columns: the sources and sinks the search shows. */
  readonly sources: readonly Source[];
  readonly sinks: readonly Sink[];
  /** Every route (the search does not hide a route from its cell). */
  readonly routes: readonly Route[];
}

export default function RouteMatrix({ sources, sinks, routes }: Props) {
  const states = useLive((s) => s.activity.routes);
  const [active, setActive] = useState<Cell>({ row: 0, column: 0 });
  const table = useRef<HTMLTableElement>(null);
  const pairs = routesByPair(routes);
  const at = {
    row: Math.min(active.row, sources.length - 1),
    column: Math.min(active.column, sinks.length - 1),
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const next = moveCell(event.key, event.ctrlKey, at, sources.length, sinks.length);
    if (!next) return;
    event.preventDefault();
    setActive(next);
    table.current
      ?.querySelector<HTMLButtonElement>(`[data-cell="${next.row}:${next.column}"]`)
      ?.focus();
  };

  if (sources.length === 0 || sinks.length === 0) {
    return (
      <p className="muted matrix-empty">
        {routes.length === 0 && sources.length + sinks.length === 0
          ? 'Add a source and a sink to route one to the other.'
          : 'Nothing matches the search.'}
      </p>
    );
  }
  return (
    <div className="matrix-scroll">
      <table
        ref={table}
        className="matrix"
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA grid pattern on a data table (WAI-ARIA APG's data grid): the arrow keys move between cells
        role="grid"
        aria-label="Routes: sources by sinks"
        aria-describedby="matrix-help"
        onKeyDown={onKeyDown}
      >
        <caption id="matrix-help" className="matrix-caption">
          A filled cell is a route. Arrow keys move, Space or Enter adds or removes the route.
        </caption>
        <thead>
          <tr>
            <td className="matrix-corner" />
            {sinks.map((sink) => (
              <th key={sink.config_id} scope="col" className="matrix-sink" title={sink.name}>
                <span>{sink.name}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sources.map((source, row) => (
            <tr key={source.config_id}>
              <th scope="row" className="matrix-source" title={source.name}>
                <span>{source.name}</span>
              </th>
              {sinks.map((sink, column) => {
                const joined = pairs.get(pairKey(source.name, sink.name)) ?? NONE;
                return (
                  <td key={sink.config_id}>
                    <MatrixCell
                      source={source.name}
                      sink={sink.name}
                      routes={joined}
                      state={stateOf(joined, states)}
                      cell={`${row}:${column}`}
                      tabbable={row === at.row && column === at.column}
                      onFocus={() => setActive({ row, column })}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const NONE: readonly Route[] = [];

type States = ReadonlyMap<string, { chip: { state: string; label: string } }>;

/** The cell's state: its route's chip (the first playing one when a pair has several), or off. */
function stateOf(joined: readonly Route[], states: States): { state: string; label: string } {
  if (joined.length === 0) return { state: 'none', label: 'no route' };
  const live = joined.map((r) =>
    r.enabled ? (states.get(r.config_id)?.chip ?? { state: 'silent', label: 'silent' }) : null,
  );
  return (
    live.find((chip) => chip?.state === 'playing') ??
    live.find((chip) => chip !== null) ?? { state: 'off', label: 'disabled' }
  );
}

interface CellProps {
  readonly source: string;
  readonly sink: string;
  readonly routes: readonly Route[];
  readonly state: { state: string; label: string };
  readonly cell: string;
  readonly tabbable: boolean;
  readonly onFocus: () => void;
}

const MatrixCell = memo(
  function MatrixCell({ source, sink, routes, state, cell, tabbable, onFocus }: CellProps) {
    const routed = routes.length > 0;
    const toggle = () => {
      if (!routed) return void connect(source, sink);
      for (const route of routes) {
        deleteWithUndo('route', route).catch((error) =>
          toastError(`Could not delete ${route.name}`, errorMessage(error)),
        );
      }
    };
    const count = routes.length > 1 ? `, ${routes.length} routes` : '';
    return (
      <button
        type="button"
        className="matrix-cell"
        data-cell={cell}
        data-state={state.state}
        aria-pressed={routed}
        aria-label={`${source} to ${sink}: ${routed ? state.label : 'no route'}${count}`}
        title={routed ? routes.map((r) => r.name).join(', ') : `Route ${source} to ${sink}`}
        tabIndex={tabbable ? 0 : -1}
        onFocus={onFocus}
        onClick={toggle}
      >
        <span className="matrix-dot" aria-hidden="true" />
        {routes.length > 1 && <span className="matrix-count">{routes.length}</span>}
      </button>
    );
  },
  (a, b) =>
    a.routes.length === b.routes.length &&
    a.routes.every((route, i) => route === b.routes[i]) &&
    a.state.state === b.state.state &&
    a.state.label === b.state.label &&
    a.tabbable === b.tabbable &&
    a.source === b.source &&
    a.sink === b.sink &&
    a.cell === b.cell,
);
