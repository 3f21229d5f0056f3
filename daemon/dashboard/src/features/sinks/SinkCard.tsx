import { useDroppable } from '@dnd-kit/core';
import { memo, type ReactNode, useId, useState } from 'react';
import { useLive } from '../../api/hooks';
import type { Sink } from '../../api/schema';
import { Chip } from '../../ui/Chip';
import { HeadphonesIcon } from '../../ui/icons';
import { LevelMeter } from '../../ui/LevelMeter';
import { useDetails } from '../entities/CardDetails';
import { sinkCounters, sinkFormat, sinkKind } from '../entities/describe';
import { EntityCardBody } from '../entities/EntityCardBody';
import { EntityMenu } from '../entities/EntityMenu';
import { ListenButton } from '../entities/ListenButton';
import { StreamLink } from '../entities/StreamLink';
import { useCardRef } from '../layout/registry';
import { Playbacks } from './Playbacks';

/** A sink: where audio goes. Dropping a source's port on it creates a route. */
export const SinkCard = memo(function SinkCard({
  sink,
  handle,
}: {
  sink: Sink;
  handle?: ReactNode;
}) {
  const register = useCardRef(sink.config_id);
  const { setNodeRef, isOver } = useDroppable({
    id: `drop:${sink.config_id}`,
    data: { type: 'sink-target', name: sink.name },
  });
  const titleId = useId();
  const details = useDetails();
  const [listening, setListening] = useState(false);
  const format = sinkFormat(sink);
  return (
    <article
      ref={(element) => {
        register(element);
        setNodeRef(element);
      }}
      className="card card-compact"
      data-drop-over={isOver || undefined}
      aria-labelledby={titleId}
    >
      <div className="card-head">
        {handle}
        <h3 className="card-title" id={titleId}>
          <span className="card-name">{sink.name}</span>
        </h3>
        <SinkChip id={sink.config_id} />
        <EntityMenu kind="sink" name={sink.name} />
      </div>
      <EntityCardBody
        kind="sink"
        entity={sink}
        details={details}
        level={<LevelMeter configId={sink.config_id} name={sink.name} />}
        meta={
          <>
            {sinkKind(sink)}
            {format && <> · {format}</>}
          </>
        }
        extra={
          <>
            {listening && !details.open && (
              <p className="card-listening">
                <HeadphonesIcon /> Playing in this browser{' '}
                <button type="button" className="link-button" onClick={details.toggle}>
                  Stop…
                </button>
              </p>
            )}
            <Playbacks sink={sink} />
          </>
        }
      >
        <SinkCounters id={sink.config_id} open={details.open} />
        <div className="card-listen">
          <StreamLink sink={sink} />
          <ListenButton sink={sink} onListening={setListening} />
        </div>
      </EntityCardBody>
    </article>
  );
});

/** The live part of the card (once a second): its state chip. */
function SinkChip({ id }: { id: string }) {
  const chip = useLive((s) => s.activity.sinks.get(id)?.chip);
  return chip ? <Chip chip={chip} /> : null;
}

/** The counters, inside the details: read only while they are open, as they change with every
 * stats message (30 a second re-rendered every card's, npm run bench -- dashboard). */
function SinkCounters({ id, open }: { id: string; open: boolean }) {
  const activity = useLive((s) => (open ? s.activity.sinks.get(id) : undefined));
  return activity?.stats ? (
    <p className="card-stats">{sinkCounters(activity.stats, activity.underrunsLastMinute)}</p>
  ) : null;
}
