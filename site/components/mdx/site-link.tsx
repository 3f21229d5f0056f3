import Link from 'next/link';
import type { ComponentProps, ReactNode } from 'react';

/** True for links to pages of this site (which get the base path and client navigation). */
export function isInternalHref(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//');
}

/** A link that is a next/link inside the site and a plain anchor elsewhere (and for #ids). */
export function SiteLink({
  href = '',
  children,
  ...rest
}: ComponentProps<'a'> & { children?: ReactNode }) {
  if (isInternalHref(href)) {
    return (
      <Link href={href} {...rest}>
        {children}
      </Link>
    );
  }
  const external = /^https?:/.test(href);
  return (
    <a href={href} {...(external ? { rel: 'noopener' } : {})} {...rest}>
      {children}
    </a>
  );
}
