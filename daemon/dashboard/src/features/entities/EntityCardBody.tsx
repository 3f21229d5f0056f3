// The body of a source or sink card under its head, the same on both: the level meter (a group's
// meters its members), the controls row (mute, volume, enable, star, Details), what the card adds
// between them and its details (sinks: Listen in Browser and the playing URLs), and the details
// panel (kind and address, the volume, a group's members with their meters, then the card's own).
import type { ReactNode } from 'react';
import type { Sink, Source } from '../../api/schema';
import { GroupLevel } from '../groups/GroupLevel';
import { MemberLevels } from '../groups/MemberLevels';
import { CardControls, FavoriteButton } from './CardControls';
import { CardDetails, DetailsButton, type useDetails } from './CardDetails';

interface Props {
  readonly kind: 'source' | 'sink';
  readonly entity: Source | Sink;
  readonly details: ReturnType<typeof useDetails>;
  /** The meter of an entity that is not a group. */
  readonly level: ReactNode;
  /** The first line of the details: kind, address, format. */
  readonly meta: ReactNode;
  /** Between the controls and the details panel. */
  readonly extra?: ReactNode;
  /** In the details panel, after a group's members. */
  readonly children?: ReactNode;
}

export function EntityCardBody({ kind, entity, details, level, meta, extra, children }: Props) {
  return (
    <>
      {entity.is_group ? <GroupLevel group={entity} kind={kind} /> : level}
      <CardControls kind={kind} entity={entity}>
        <FavoriteButton entity={entity} />
        <DetailsButton name={entity.name} details={details} group={entity.is_group} />
      </CardControls>
      {extra}
      <CardDetails details={details} volume={entity.volume} meta={meta}>
        {entity.is_group && details.open && <MemberLevels group={entity} kind={kind} />}
        {children}
      </CardDetails>
    </>
  );
}
