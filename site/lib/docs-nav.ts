// Resolves a docs URL to its page, breadcrumbs and previous/next links from content/nav.ts.
// Pure functions: the catch-all route, the sidebar and the tests all use them.
import {
  type NavGroup,
  type NavPage,
  navGroups,
  type PageId,
  pageIds,
  type SegmentAlias,
  segmentAliases,
} from '@content/nav';

export type { NavGroup, NavPage, PageId };

/** Every page in sidebar order (the order of previous/next). */
export const navPages: readonly NavPage[] = navGroups.flatMap((group) => group.pages);

export interface Crumb {
  label: string;
  href?: string;
}

export interface ResolvedDoc {
  /** The nav entry whose content is shown. */
  page: NavPage;
  /** The sidebar group holding it. */
  group: NavGroup;
  /** The segment as requested ('' for /docs/). */
  segment: string;
  /** Set when the segment is an alias of another page. */
  alias?: SegmentAlias;
  /** False when an unknown segment fell back to the overview. */
  known: boolean;
  /** Empty on the overview and on pages the spec shows without one. */
  breadcrumbs: Crumb[];
  previous?: NavPage;
  next?: NavPage;
}

const bySegment = new Map(navPages.map((page) => [page.segment, page]));
const byId = new Map(navPages.map((page) => [page.id, page]));
const groupOf = new Map(navGroups.flatMap((group) => group.pages.map((p) => [p.id, group])));

export function pageById(id: PageId): NavPage {
  const page = byId.get(id);
  if (!page) throw new Error(`page id ${id} is not in content/nav.ts`);
  return page;
}

/** The site path of a docs segment, with the trailing slash the export uses. */
export function docHref(segment: string): string {
  return segment === '' ? '/docs/' : `/docs/${segment}/`;
}

/** The page is chosen by the last path segment; an empty or unknown one shows the overview. */
export function resolveDocPath(slug: readonly string[] | undefined): ResolvedDoc {
  const segment = decodeSegment(slug?.at(-1) ?? '');
  const alias = segmentAliases[segment];
  const direct = bySegment.get(segment);
  const page = alias ? pageById(alias.id) : (direct ?? pageById('overview'));
  const known = alias !== undefined || direct !== undefined;
  const index = navPages.indexOf(page);
  const group = groupOf.get(page.id);
  if (!group) throw new Error(`page ${page.id} has no group`);
  const showCrumbs = page.id !== 'overview' && page.breadcrumb !== false;
  return {
    page,
    group,
    segment,
    ...(alias ? { alias } : {}),
    known,
    breadcrumbs: showCrumbs ? [{ label: 'Docs', href: docHref('') }, { label: page.title }] : [],
    ...(index > 0 ? { previous: navPages[index - 1] } : {}),
    ...(index < navPages.length - 1 ? { next: navPages[index + 1] } : {}),
  };
}

/** Every segment the export writes a page for: the nav pages and the aliases ('' is /docs/). */
export function exportedSegments(): string[] {
  return [...navPages.map((page) => page.segment), ...Object.keys(segmentAliases)];
}

/** Checks the nav file against the page id list: each id exactly once, segments unique. */
export function navProblems(): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const page of navPages) {
    if (seen.has(page.id)) problems.push(`page ${page.id} appears twice in the nav`);
    seen.add(page.id);
  }
  for (const id of pageIds) if (!seen.has(id)) problems.push(`page ${id} is missing from the nav`);
  const segments = exportedSegments();
  for (const s of new Set(segments)) {
    if (segments.indexOf(s) !== segments.lastIndexOf(s))
      problems.push(`segment "${s}" is used twice`);
  }
  return problems;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
