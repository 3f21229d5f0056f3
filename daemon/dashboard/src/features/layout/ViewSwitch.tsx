// Cards and lines, or the matrix: how the desktop shows the routes (remembered on this device).
// With many routes the lines are drawn faint but the focused entity's (RouteLines), and the
// matrix shows every pair at once; the switch offers both whatever the size of the house.
import { type RoutesView, routesView } from './registry';

const VIEWS: readonly { view: RoutesView; label: string }[] = [
  { view: 'lines', label: 'Cards' },
  { view: 'matrix', label: 'Matrix' },
];

export function ViewSwitch() {
  const current = routesView.useValue();
  return (
    <fieldset className="view-switch">
      <legend className="visually-hidden">Show the routes as</legend>
      {VIEWS.map(({ view, label }) => (
        <button
          key={view}
          type="button"
          aria-pressed={current === view}
          onClick={() => routesView.set(view)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}
