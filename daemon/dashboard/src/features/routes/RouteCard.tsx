import { memo, type ReactNode, useEffect, useId, useRef } from 'react';
import { useLive } from '../../api/hooks';
import type { Route, SolvedPath } from '../../api/schema';
import { routeName } from '../../lib/names';
import { formatVolume } from '../../lib/volume';
import { Chip } from '../../ui/Chip';
import { CardControls, FavoriteButton } from '../entities/CardControls';
import { CardDetails, DetailsButton, useDetails } from '../entities/CardDetails';
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
  const details = useDetails();
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
      className="card card-compact card-route"
      data-selected={selected || undefined}
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <div className="card-head">
        {handle}
        <h3 className="card-title" id={titleId}>
          <span className="card-name" title={`${route.source} → ${route.sink}`}>
            {route.source} <span aria-hidden="true">→</span>
            <span className="visually-hidden"> to </span> {route.sink}
          </span>
        </h3>
        <RouteChip id={route.config_id} />
        <FavoriteButton entity={route} />
        <EntityMenu kind="route" name={route.name} />
      </div>
      <CardControls kind="route" entity={route}>
        <DetailsButton name={route.name} details={details} />
      </CardControls>
      <CardDetails
        details={details}
        volume={route.volume}
        meta={route.name !== routeName(route.source, route.sink) ? route.name : 'Route'}
      >
        <RouteEffective id={route.config_id} />
      </CardDetails>
    </article>
  );
});

/** The live part of the card: its state chip. */
function RouteChip({ id }: { id: string }) {
  const chip = useLive((s) => s.activity.routes.get(id)?.chip);
  return chip ? <Chip chip={chip} /> : null;
}

/** The chain's effective values, in the details. */
function RouteEffective({ id }: { id: string }) {
  const paths = useLive((s) => s.activity.routes.get(id)?.paths);
  return paths ? <p className="card-stats">{effective(paths)}</p> : null;
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
