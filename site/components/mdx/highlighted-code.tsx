import { type CSSProperties, Fragment } from 'react';
import { type BundledLanguage, getSingletonHighlighter } from 'shiki';
import { codeHighlighting } from '@/lib/code-highlighting';
import { CodeBlock } from './code-block';

/**
 * A code block for page components (the MDX pages get theirs from the MDX pipeline), highlighted
 * while the page is built, like those: a server component, so no highlighter reaches the browser.
 */
export async function HighlightedCode({ code, lang }: { code: string; lang: BundledLanguage }) {
  const { themes, langs, defaultColor } = codeHighlighting;
  const highlighter = await getSingletonHighlighter({
    themes: Object.values(themes),
    langs: [...langs],
  });
  const { tokens } = highlighter.codeToTokens(code, { lang, themes, defaultColor });
  return (
    <CodeBlock className="shiki">
      <code className={`language-${lang}`}>
        {tokens.map((line, number) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text, never reordered
          <Fragment key={number}>
            {number > 0 ? '\n' : null}
            <span className="line">
              {line.map((token) => (
                <span key={token.offset} style={token.htmlStyle as CSSProperties}>
                  {token.content}
                </span>
              ))}
            </span>
          </Fragment>
        ))}
      </code>
    </CodeBlock>
  );
}
