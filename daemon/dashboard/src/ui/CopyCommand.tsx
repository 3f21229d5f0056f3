import { useState } from 'react';

/** A command in a code block with a Copy button (the clipboard needs HTTPS, which we are). */
export function CopyCommand({ label, command }: { label: string; command: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="command" aria-label={label}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: long lines scroll; the keyboard must reach them */}
      <pre tabIndex={0}>
        <code>{command}</code>
      </pre>
      <button type="button" className="button button-small button-secondary" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> {label}</span>
      </button>
    </section>
  );
}
