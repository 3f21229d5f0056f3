import { memo, type ReactNode, useEffect, useId, useRef } from 'react';
import { useLive } from '../../api/hooks';
import type { Route, SolvedPath } from '../../api/schema';
import { routeName } from '../../lib/names';
import { formatVolume } from '../../lib/volume';
import { Chip } from '../../ui/Chip';
import { CardControls, FavoriteButton } from '../entities/CardControls';
import { EntityMenu } from '../entities/EntityMenu';
import { selectedRoute, useCardRef } from '../layout/registry';

/** A route: "Source → Sink", its own volume, and what the whole chain makes of it. */
export const RouteCard = memo(function RouteCard({
  route,
  handle,
}: {
  route: Route;
  handle?: ReactNode;
}) {
  const selected = selectedRoute.useValue() === route.config_id;
  const register = useCardRef(route.config_id);
  const own = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    if (selected) {
      own.current?.scrollIntoView({ block: 'nearest' });
      own.current?.focus({ preventScroll: true });
    }
  }, [selected]);
  return (
    <article
      ref={(element) => {
        own.current = element;
        register(element);
      }}
      className="card card-route"
      data-selected={selected || undefined}
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <div className="card-head">
        {handle}
        <h3 className="card-title" id={titleId}>
          <span className="card-name">
            {route.source} <span aria-hidden="true">→</span>
            <span className="visually-hidden"> to </span> {route.sink}
          </span>
        </h3>
        <FavoriteButton entity={route} />
        <EntityMenu kind="route" name={route.name} />
      </div>
      {route.name !== routeName(route.source, route.sink) && (
        <p className="card-meta">{route.name}</p>
      )}
      <RouteStatus id={route.config_id} />
      <CardControls kind="route" entity={route} />
    </article>
  );
});

/** The live part of the card: state chip and the chain's effective values. */
function RouteStatus({ id }: { id: string }) {
  const activity = useLive((s) => s.activity.routes.get(id));
  return (
    <div className="card-state">
      {activity && <Chip chip={activity.chip} />}
      {activity && <span className="card-stats">{effective(activity.paths)}</span>}
    </div>
  );
}

/** The chain's result: effective volume and delay (source × groups × route × groups × sink). */
function effective(paths: readonly SolvedPath[]): string {
  if (paths.length === 0) return '';
  const [first] = paths;
  if (paths.length === 1 && first) {
    return `Effective ${formatVolume(first.volume)} · ${first.delay_ms} ms`;
  }
  const volumes = paths.map((p) => p.volume);
  return `${paths.length} paths · effective ${Math.min(...volumes).toFixed(3)}–${Math.max(...volumes).toFixed(3)}`;
}
