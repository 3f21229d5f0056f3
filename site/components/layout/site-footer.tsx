import { siteConfig } from '@/lib/site-config';
import { CurrentYear } from './current-year';
import { ExternalLinks } from './external-links';
import { SiteLinks } from './site-links';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <p>
          © <CurrentYear buildYear={new Date().getFullYear()} /> {siteConfig.name} contributors. MIT
          licensed.
        </p>
        <nav aria-label="Footer">
          <SiteLinks className="footer-links" />
          <ExternalLinks className="footer-links" />
        </nav>
      </div>
    </footer>
  );
}
