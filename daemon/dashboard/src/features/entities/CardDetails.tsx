// A card's "Details" disclosure: a small button on the card's control row (aria-expanded) and the
// panel it opens below, with what a listener does not need at a glance: the kind and address or
// format, the volume in dB with the saved value, the counters (packets, loss, jitter, buffer,
// clock), a group's members with their own meters, and the card's links (Stream, Listen, VNC).
import { type ReactNode, useId, useState } from 'react';
import { formatVolume, volumeDetail } from '../../lib/volume';
import { ChevronIcon } from '../../ui/icons';

/** Whether a card's details are open, and the ids that tie the button to its panel. */
export function useDetails() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return { open, panelId, toggle: () => setOpen((o) => !o) };
}

export function DetailsButton({
  name,
  details,
  group = false,
}: {
  name: string;
  details: ReturnType<typeof useDetails>;
  group?: boolean;
}) {
  return (
    <button
      type="button"
      className="icon-button details-button"
      aria-expanded={details.open}
      aria-controls={details.panelId}
      aria-label={group ? `Members and details of ${name}` : `Details of ${name}`}
      title={group ? 'Members and details' : 'Details'}
      onClick={details.toggle}
    >
      <ChevronIcon />
    </button>
  );
}

export function CardDetails({
  details,
  volume,
  meta,
  children,
}: {
  details: ReturnType<typeof useDetails>;
  volume: number;
  meta: ReactNode;
  children?: ReactNode;
}) {
  // Kept in the page while closed (hidden), so a Listen in Browser session it holds plays on.
  return (
    <div className="card-details" id={details.panelId} hidden={!details.open}>
      <p className="card-meta">{meta}</p>
      <p>
        Volume {formatVolume(volume)} · {volumeDetail(volume)}
      </p>
      {children}
    </div>
  );
}
