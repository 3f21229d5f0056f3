'use client';
import { useHashTarget } from '@/components/mdx/use-hash-target';

/** Opens the <details> a #fragment points into (an operation or schema), on load and on change. */
export function OpenLinkedDetails() {
  useHashTarget((target) => {
    const details = target.closest('details');
    if (!details || details.open) return false;
    details.open = true;
    return true;
  });
  return null;
}
