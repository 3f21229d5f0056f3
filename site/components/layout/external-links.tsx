import { externalLinks } from '@/lib/site-config';

/** The repository and chat links, from site-config.ts; used in the top bar and footer. */
export function ExternalLinks({ className }: { className?: string }) {
  return (
    <ul className={className}>
      {externalLinks.map((link) => (
        <li key={link.href}>
          <a href={link.href} title={link.description} rel="noopener">
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
