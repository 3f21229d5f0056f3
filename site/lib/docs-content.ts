// Loads a docs page's MDX module at build time (server components only). A page id whose file
// is not written yet yields null, and the route shows a placeholder instead of failing the build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MDXContent } from 'mdx/types';
import type { PageId } from './docs-nav';

export interface DocMetadata {
  title?: string;
  description?: string;
}

export interface DocModule {
  default: MDXContent;
  metadata?: DocMetadata;
}

export const docsDir = path.join(process.cwd(), '..', 'content', 'docs');

export function docFile(id: PageId): string {
  return path.join(docsDir, `${id}.mdx`);
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
