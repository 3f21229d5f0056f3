import Link from 'next/link';
import { SearchLauncher } from '@/components/search/search-launcher';
import { ExternalLinks } from './external-links';
import { HeaderMenu } from './header-menu';
import { LogoMark } from './logo';
import { SiteLinks } from './site-links';
import { ThemeToggle } from './theme-toggle';

export function SiteHeader() {
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="header-inner">
        <Link href="/" className="logo">
          <LogoMark />
          <span>Tributary</span>
        </Link>
        <HeaderMenu>
          <nav aria-label="Main">
            <SiteLinks className="header-links" />
          </nav>
          <ExternalLinks className="header-links external" />
        </HeaderMenu>
        <div className="header-tools">
          <SearchLauncher />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
