import type { ComponentProps } from 'react';
import { CopyButton } from './copy-button';

/** A fenced code block with its language label and a copy button. */
export function CodeBlock({ children, ...rest }: ComponentProps<'pre'>) {
  const className =
    typeof children === 'object' && children !== null && 'props' in children
      ? String((children.props as { className?: string }).className ?? '')
      : '';
  const language = /language-([\w-]+)/.exec(className)?.[1];
  return (
    <div className="code-block">
      {language ? <span className="code-language">{language}</span> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable code must be reachable by keyboard */}
      <pre tabIndex={0} {...rest}>
        {children}
      </pre>
      <CopyButton />
    </div>
  );
}
