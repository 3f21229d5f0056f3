import type { ReactNode } from 'react';

export type CalloutKind = 'note' | 'tip' | 'warning' | 'danger';

const titles: Record<CalloutKind, string> = {
  note: 'Note',
  tip: 'Tip',
  warning: 'Warning',
  danger: 'Danger',
};

export function Callout({
  kind = 'note',
  title,
  children,
}: {
  kind?: CalloutKind;
  title?: string;
  children?: ReactNode;
}) {
  const known = kind in titles ? kind : 'note';
  return (
    // A note, not a landmark: pages hold many callouts, and landmarks must be unique.
    <div className={`callout callout-${known}`} role="note">
      <p className="callout-title">{title ?? titles[known]}</p>
      <div className="callout-body">{children}</div>
    </div>
  );
}

/** The plain notice for a documented feature that Tributary does not have yet. */
export function NotBuilt({ children }: { children?: ReactNode }) {
  return (
    <div className="callout callout-not-built" role="note">
      <p className="callout-title">Not built yet in Tributary</p>
      {children ? <div className="callout-body">{children}</div> : null}
    </div>
  );
}
