import type { ReactNode } from 'react';
import { SiteLink } from './site-link';

/**
 * A grid of cards, as many columns as fit. `columns` caps them on wide screens so a set of 3 or 6
 * fills whole rows instead of leaving an empty column (4 fit at 1280 px).
 */
export function Cards({ children, columns }: { children?: ReactNode; columns?: 2 | 3 }) {
  return (
    <div className="cards" data-columns={columns}>
      {children}
    </div>
  );
}

/** A card with a title and text; the whole card is one link when it has an href. */
export function Card({
  title,
  href,
  children,
}: {
  title: string;
  href?: string;
  children?: ReactNode;
}) {
  const body = (
    <>
      <span className="card-title">{title}</span>
      {children ? <div className="card-text">{children}</div> : null}
    </>
  );
  return href ? (
    <SiteLink href={href} className="card card-link">
      {body}
    </SiteLink>
  ) : (
    <div className="card">{body}</div>
  );
}

export function ButtonLink({
  href,
  children,
  variant = 'primary',
}: {
  href: string;
  children?: ReactNode;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <SiteLink href={href} className={`button button-${variant}`}>
      {children}
    </SiteLink>
  );
}
