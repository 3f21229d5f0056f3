'use client';
import { usePathname } from 'next/navigation';
import { useState } from 'react';

/** Open/closed state for a menu that closes by itself when the reader navigates. */
export function useDisclosure(): [boolean, (open: boolean | ((was: boolean) => boolean)) => void] {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  return [open, setOpen];
}
