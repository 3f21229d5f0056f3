import Link from 'next/link';

/** The site's own top-level links (Docs, Downloads), in the top bar and the footer. */
export function SiteLinks({ className }: { className?: string }) {
  return (
    <ul className={className}>
      <li>
        <Link href="/docs/">Docs</Link>
      </li>
      <li>
        <Link href="/downloads/">Downloads</Link>
      </li>
    </ul>
  );
}
