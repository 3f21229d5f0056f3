import { useDraggable } from '@dnd-kit/core';
import { memo, type ReactNode, useId } from 'react';
import { useLive } from '../../api/hooks';
import type { Source } from '../../api/schema';
import { Chip } from '../../ui/Chip';
import { useDetails } from '../entities/CardDetails';
import { sourceAddress, sourceCounters, sourceKind } from '../entities/describe';
import { EntityCardBody } from '../entities/EntityCardBody';
import { EntityMenu } from '../entities/EntityMenu';
import { VncLink } from '../entities/VncLink';
import { activeSource, useCardRef } from '../layout/registry';
import { SourceLevel } from './SourceLevel';

/** A source: click its name to make it the active source; drag its port onto a sink to route it. */
export const SourceCard = memo(function SourceCard({
  source,
  handle,
}: {
  source: Source;
  handle?: ReactNode;
}) {
  const active = activeSource.useValue() === source.config_id;
  const ref = useCardRef(source.config_id);
  const titleId = useId();
  const details = useDetails();
  const address = sourceAddress(source);
  return (
    <article
      ref={ref}
      className="card card-compact"
      data-active={active || undefined}
      aria-labelledby={titleId}
    >
      <div className="card-head">
        {handle}
        <h3 className="card-title" id={titleId}>
          <button
            type="button"
            className="card-name"
            aria-pressed={active}
            title="Make it the active source"
            onClick={() => activeSource.set(source.config_id)}
          >
            {source.name}
          </button>
        </h3>
        <SourceChip id={source.config_id} />
        <EntityMenu kind="source" name={source.name} />
      </div>
      <EntityCardBody
        kind="source"
        entity={source}
        details={details}
        level={<SourceLevel source={source} />}
        meta={
          <>
            {sourceKind(source)}
            {address && <> · {address}</>}
          </>
        }
      >
        <SourceCounters id={source.config_id} open={details.open} />
        {source.vnc_ip && <VncLink source={source.name} named />}
      </EntityCardBody>
      <ConnectPort source={source} />
    </article>
  );
});

/** The live part of the card (once a second): its state chip. */
function SourceChip({ id }: { id: string }) {
  const chip = useLive((s) => s.activity.sources.get(id)?.chip);
  return chip ? <Chip chip={chip} /> : null;
}

/** The counters, inside the details: read only while they are open, as they change with every
 * stats message (30 a second re-rendered every card's, npm run bench -- dashboard). */
function SourceCounters({ id, open }: { id: string; open: boolean }) {
  const stats = useLive((s) => (open ? s.activity.sources.get(id)?.stats : undefined));
  return stats && stats.packets > 0 ? <p className="card-stats">{sourceCounters(stats)}</p> : null;
}

/** The output port on the card's right edge: drag it onto a sink to create a route. */
function ConnectPort({ source }: { source: Source }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `connect:${source.config_id}`,
    data: { type: 'connect', name: source.name },
  });
  return (
    <button
      ref={setNodeRef}
      type="button"
      className="port"
      data-dragging={isDragging || undefined}
      aria-label={`Connect ${source.name} to a sink`}
      title="Drag onto a sink to play this source there"
      {...attributes}
      {...listeners}
    />
  );
}
