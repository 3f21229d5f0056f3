/** Three streams joining one river: the Tributary mark. Decorative; the text names the link. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" width={size} height={size} className="logo-mark">
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path
        d="M6 9c5 0 7 3 10 7M6 16h10M6 23c5 0 7-3 10-7m0 0h10"
        fill="none"
        stroke="var(--accent-contrast)"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
