// The one MDX components registry: every component the docs contract promises (content/README.md)
// is available in content/docs/*.mdx without an import, and markdown elements get the site's
// versions (anchored headings, code blocks with a copy button, base-path-aware links).
import type { MDXComponents } from 'mdx/types';
import { ApiReference } from '@/components/api/api-reference';
import { Accordion, AccordionItem } from '@/components/mdx/accordion';
import { BenchFigure, BenchSource, BenchTable } from '@/components/mdx/bench-figure';
import { Callout, NotBuilt } from '@/components/mdx/callout';
import { ButtonLink, Card, Cards } from '@/components/mdx/cards';
import { CodeBlock } from '@/components/mdx/code-block';
import { H2, H3, H4 } from '@/components/mdx/heading';
import { ChatLink, RepoLink } from '@/components/mdx/project-links';
import { SiteLink } from '@/components/mdx/site-link';
import { Table } from '@/components/mdx/table';
import { Tab, Tabs } from '@/components/mdx/tabs';

export const mdxComponents: MDXComponents = {
  Tabs,
  Tab,
  Accordion,
  AccordionItem,
  Callout,
  NotBuilt,
  Cards,
  Card,
  ButtonLink,
  ApiReference,
  BenchFigure,
  BenchTable,
  BenchSource,
  RepoLink,
  ChatLink,
  a: SiteLink,
  h2: H2,
  h3: H3,
  h4: H4,
  pre: CodeBlock,
  table: Table,
};

export function useMDXComponents(inherited?: MDXComponents): MDXComponents {
  return { ...inherited, ...mdxComponents };
}
