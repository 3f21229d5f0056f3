import type { ReactNode } from 'react';
import { siteConfig } from '@/lib/site-config';

/** A link to the source repository (optionally a path in it), from site-config.ts. */
export function RepoLink({ path = '', children }: { path?: string; children?: ReactNode }) {
  const href = `${siteConfig.repository.href}${path ? `/${path.replace(/^\//, '')}` : ''}`;
  return (
    <a href={href} rel="noopener">
      {children ?? siteConfig.repository.description}
    </a>
  );
}

/** A link to the community chat, from site-config.ts. */
export function ChatLink({ children }: { children?: ReactNode }) {
  return (
    <a href={siteConfig.chat.href} rel="noopener">
      {children ?? siteConfig.chat.description}
    </a>
  );
}
