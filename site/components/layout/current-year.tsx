'use client';
import { useEffect, useState } from 'react';

/** The year the page is read in: the build year in the HTML, corrected in the browser. */
export function CurrentYear({ buildYear }: { buildYear: number }) {
  const [year, setYear] = useState(buildYear);
  useEffect(() => setYear(new Date().getFullYear()), []);
  return <>{year}</>;
}
