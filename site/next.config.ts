import path from 'node:path';
import createMDX from '@next/mdx';
import type { NextConfig } from 'next';
import { normaliseBasePath } from './lib/base-path';
import { codeHighlighting } from './lib/code-highlighting';

// Build-time settings: SITE_BASE_PATH exports the site under a sub-folder ("/tributary").
const basePath = normaliseBasePath(process.env.SITE_BASE_PATH);
// The repository root: the docs (../content) and the OpenAPI document (../daemon) live there.
const repositoryRoot = path.resolve(process.cwd(), '..');

const nextConfig: NextConfig = {
  output: 'export',
  // SITE_DIST_DIR lets a second build (another base path, the tests) run beside the main one.
  ...(process.env.SITE_DIST_DIR ? { distDir: process.env.SITE_DIST_DIR } : {}),
  trailingSlash: true,
  basePath,
  env: { NEXT_PUBLIC_BASE_PATH: basePath },
  images: { unoptimized: true },
  reactStrictMode: true,
  turbopack: { root: repositoryRoot },
  outputFileTracingRoot: repositoryRoot,
  // `npm run typecheck` (tsc over site/ and content/) is the type check; the build skips its own.
  typescript: { ignoreBuildErrors: true },
};

// Plugins are named by package (or absolute path) so the options stay serialisable for Turbopack.
const withMDX = createMDX({
  options: {
    remarkPlugins: ['remark-gfm'],
    rehypePlugins: [
      'rehype-slug',
      // After rehype-slug, so the headings have their ids.
      path.resolve(process.cwd(), 'lib/mdx/rehype-table-of-contents.mjs'),
      // Syntax highlighting at build time (lib/code-highlighting.ts).
      ['@shikijs/rehype', codeHighlighting],
    ],
  },
});

export default withMDX(nextConfig);
