import type { ReactNode } from 'react';
import { SiteLink } from './site-link';

export function Cards({ children }: { children?: ReactNode }) {
  return <div className="cards">{children}</div>;
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
