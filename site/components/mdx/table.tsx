import type { ComponentProps } from 'react';

/** Every docs table: a focusable wrapper (not a landmark: pages hold many tables) so wide tables
 * scroll by keyboard. */
export function Table(props: ComponentProps<'table'>) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be focusable
    <div className="table-wrap" tabIndex={0}>
      <table {...props} />
    </div>
  );
}
