'use client';
import { useEffect, useState } from 'react';
import type { TocEntry } from '@/lib/docs-content';

/** The heading whose section is being read: the last one above this share of the viewport. */
const READING_LINE = 0.3;

/**
 * "On this page": the page's h2 and h3 headings, shown beside the article on wide screens, the
 * section being read marked as you scroll.
 */
export function TableOfContents({ entries }: { entries: readonly TocEntry[] }) {
  const [current, setCurrent] = useState<string | null>(null);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const line = window.innerHeight * READING_LINE;
      let reading: string | null = null;
      for (const { id } of entries) {
        const heading = document.getElementById(id);
        // Headings in a closed tab or accordion have no box: they are not being read.
        if (!heading || heading.getClientRects().length === 0) continue;
        if (heading.getBoundingClientRect().top <= line) reading = id;
      }
      setCurrent(reading);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [entries]);
  return (
    <nav className="docs-toc" aria-labelledby="docs-toc-title" data-pagefind-ignore="">
      <p id="docs-toc-title" className="docs-toc-title">
        On this page
      </p>
      <ul>
        {entries.map((entry) => (
          <li key={entry.id} className={entry.depth === 3 ? 'docs-toc-sub' : undefined}>
            <a href={`#${entry.id}`} aria-current={entry.id === current ? 'true' : undefined}>
              {entry.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
