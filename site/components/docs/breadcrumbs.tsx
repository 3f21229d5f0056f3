import Link from 'next/link';
import type { Crumb } from '@/lib/docs-nav';

export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs" data-pagefind-ignore="">
      <ol>
        {crumbs.map((crumb) => (
          <li key={crumb.label}>
            {crumb.href ? (
              <Link href={crumb.href}>{crumb.label}</Link>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
