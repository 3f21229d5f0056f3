import { navGroups } from '@content/nav';
import Link from 'next/link';
import { docHref, type PageId } from '@/lib/docs-nav';
import { SidebarToggle } from './sidebar-toggle';

/** The docs navigation from content/nav.ts, the current page (if any) marked with aria-current. */
export function DocsSidebar({ current }: { current?: PageId }) {
  return (
    <SidebarToggle>
      <nav aria-label="Documentation" className="docs-nav" data-pagefind-ignore="">
        {navGroups.map((group) => (
          <div key={group.title} className="docs-nav-group">
            <p className="docs-nav-title">{group.title}</p>
            <ul>
              {group.pages.map((page) => (
                <li key={page.id}>
                  <Link
                    href={docHref(page.segment)}
                    // Prefetch on hover only: thirty links in view would each fetch their page.
                    prefetch={false}
                    aria-current={page.id === current ? 'page' : undefined}
                  >
                    {page.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
    </SidebarToggle>
  );
}
