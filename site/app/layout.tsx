import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SiteFooter } from '@/components/layout/site-footer';
import { SiteHeader } from '@/components/layout/site-header';
import { assetCheckScript } from '@/lib/asset-check';
import { basePath } from '@/lib/base-path';
import { siteConfig } from '@/lib/site-config';
import { themeInitScript } from '@/lib/theme';
import './styles/base.css';
import './styles/layout.css';
import './styles/mdx.css';
import './styles/docs.css';
import './styles/pages.css';

export const metadata: Metadata = {
  title: {
    default: `${siteConfig.name}: network audio router`,
    template: `%s | ${siteConfig.name}`,
  },
  description: siteConfig.description,
  applicationName: siteConfig.name,
};

export const viewport: Viewport = {
  themeColor: '#0b6e6e',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" data-theme="light" suppressHydrationWarning>
      <head>
        {/* Applies the stored colour mode before the first paint (no flash of the wrong theme). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed string from lib/theme.ts */}
        <script dangerouslySetInnerHTML={{ __html: themeInitScript }} />
        {/* Says so on the page when its own scripts or styles fail (lib/asset-check.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed string from lib/asset-check.ts */}
        <script dangerouslySetInnerHTML={{ __html: assetCheckScript(basePath) }} />
      </head>
      <body>
        <SiteHeader />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
