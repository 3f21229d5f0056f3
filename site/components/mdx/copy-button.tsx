'use client';
import { useEffect, useRef, useState } from 'react';

type Status = 'idle' | 'copied' | 'failed';

const labels: Record<Status, string> = { idle: 'Copy', copied: 'Copied', failed: 'Copy failed' };

/** Copies the text of the code block it sits in (the sibling <pre>), without the prompt. */
export function CopyButton() {
  const [status, setStatus] = useState<Status>('idle');
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (status === 'idle') return;
    const timer = setTimeout(() => setStatus('idle'), 2000);
    return () => clearTimeout(timer);
  }, [status]);
  const copy = async () => {
    const text = button.current?.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text.replace(/\n$/, ''));
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <button ref={button} type="button" className="copy-button" onClick={copy}>
      <span aria-live="polite">{labels[status]}</span>
      {status === 'idle' ? <span className="visually-hidden"> code to clipboard</span> : null}
    </button>
  );
}
