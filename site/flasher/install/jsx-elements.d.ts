// Lets TSX use <tributary-install-button>; React 19 sets `manifest`, `active` and `overrides` as
// properties once the element is defined.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { InstallOverrides } from './manifest';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'tributary-install-button': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        manifest?: string;
        active?: boolean;
        overrides?: InstallOverrides;
      };
    }
  }
}
