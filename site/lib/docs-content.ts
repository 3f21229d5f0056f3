// Loads a docs page's MDX module at build time (server components only). A page id whose file
// is not written yet yields null, and the route shows a placeholder instead of failing the build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MDXContent } from 'mdx/types';
import type { PageId } from './docs-nav';
import { siteConfig } from './site-config';

export interface DocMetadata {
  title?: string;
  description?: string;
}

/** A heading of the page, for its "On this page" list (lib/mdx/rehype-table-of-contents.mjs). */
export interface TocEntry {
  depth: 2 | 3;
  id: string;
  text: string;
}

export interface DocModule {
  default: MDXContent;
  metadata?: DocMetadata;
  tableOfContents?: TocEntry[];
}

export const docsDir = path.join(process.cwd(), '..', 'content', 'docs');

export function docFile(id: PageId): string {
  return path.join(docsDir, `${id}.mdx`);
}

/** The page's source file in the repository, opened in its editor ("Edit this page"). */
export function docEditUrl(id: PageId): string {
  return `${siteConfig.editBase}content/docs/${id}.mdx`;
}

export async function loadDoc(id: PageId): Promise<DocModule | null> {
  if (!existsSync(docFile(id))) return null;
  try {
    return (await import(`../../content/docs/${id}.mdx`)) as DocModule;
  } catch (error) {
    // A file added after the bundle was compiled (while the docs are being written) is not in it.
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
}
