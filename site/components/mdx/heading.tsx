import type { ComponentProps } from 'react';

type HeadingProps = ComponentProps<'h2'>;

/**
 * h2-h4 with their rehype-slug id: the heading text links to its own anchor, so readers can copy
 * a link to any section (a "#" mark appears on hover and focus).
 */
function anchored(Tag: 'h2' | 'h3' | 'h4') {
  function AnchoredHeading({ id, children, ...rest }: HeadingProps) {
    if (!id) return <Tag {...rest}>{children}</Tag>;
    return (
      <Tag id={id} {...rest}>
        <a className="heading-anchor" href={`#${id}`}>
          {children}
        </a>
      </Tag>
    );
  }
  AnchoredHeading.displayName = `Anchored${Tag.toUpperCase()}`;
  return AnchoredHeading;
}

export const H2 = anchored('h2');
export const H3 = anchored('h3');
export const H4 = anchored('h4');
