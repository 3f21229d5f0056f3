import Link from 'next/link';
import { type DocModule, docEditUrl } from '@/lib/docs-content';
import { docHref, type ResolvedDoc } from '@/lib/docs-nav';
import { mdxComponents } from '@/mdx-components';
import { Breadcrumbs } from './breadcrumbs';
import { DocsSidebar } from './docs-sidebar';
import { TableOfContents } from './table-of-contents';

/**
 * A docs page: sidebar, breadcrumbs, the MDX article (or a placeholder), "Edit this page",
 * previous/next, and on wide screens the page's headings ("On this page").
 */
export function DocsPage({ doc, module }: { doc: ResolvedDoc; module: DocModule | null }) {
  const Content = module?.default;
  const title = module?.metadata?.title ?? doc.page.title;
  const headings = module?.tableOfContents ?? [];
  return (
    <div className="docs-layout">
      <DocsSidebar current={doc.page.id} />
      {/* An alias shows another page: only that page is indexed, so search lists it once. */}
      <article className="docs-article" data-pagefind-body={doc.alias ? undefined : ''}>
        <Breadcrumbs crumbs={doc.breadcrumbs} />
        {doc.alias ? (
          <p className="alias-note" data-pagefind-ignore="">
            {doc.alias.note}; it is also at{' '}
            <Link href={docHref(doc.page.segment)}>{docHref(doc.page.segment)}</Link>.
          </p>
        ) : null}
        {Content ? (
          <>
            <h1>{title}</h1>
            <Content components={mdxComponents} />
          </>
        ) : (
          <>
            <h1>{title}</h1>
            <p className="placeholder">
              This page is being written. Its file, <code>content/docs/{doc.page.id}.mdx</code>, is
              not in this build yet; the <Link href="/docs/">documentation overview</Link> lists
              what is available.
            </p>
          </>
        )}
        {Content ? (
          <p className="edit-page" data-pagefind-ignore="">
            <a href={docEditUrl(doc.page.id)} rel="noopener">
              Edit this page on GitHub
            </a>
          </p>
        ) : null}
        <nav className="pager" aria-label="Previous and next pages" data-pagefind-ignore="">
          {doc.previous ? (
            <Link className="pager-link previous" href={docHref(doc.previous.segment)}>
              <span className="pager-label">Previous</span>
              <span className="pager-title">{doc.previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {doc.next ? (
            <Link className="pager-link next" href={docHref(doc.next.segment)}>
              <span className="pager-label">Next</span>
              <span className="pager-title">{doc.next.title}</span>
            </Link>
          ) : null}
        </nav>
      </article>
      {/* Two headings or more make a list worth showing. */}
      {headings.length >= 2 ? (
        <div className="docs-toc-column">
          <TableOfContents entries={headings} />
        </div>
      ) : null}
    </div>
  );
}
