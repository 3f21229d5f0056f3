import type { Chip as ChipData } from '../lib/activity';

/** A state chip: text and colour, the detail as its title and for screen readers. */
export function Chip({ chip }: { chip: ChipData }) {
  return (
    <span className="chip" data-state={chip.state} title={chip.detail}>
      <span className="chip-dot" aria-hidden="true" />
      {chip.label}
      <span className="visually-hidden">: {chip.detail}</span>
    </span>
  );
}
