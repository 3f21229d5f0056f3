import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { CloseIcon } from './icons';

interface Props {
  readonly title: string;
  readonly description?: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly wide?: boolean;
}

/** A modal dialog (Radix: focus trapped, Esc and the close button close it, focus returns). */
export function Dialog({ title, description, onClose, children, wide = false }: Props) {
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={wide ? 'dialog dialog-wide' : 'dialog'}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </RadixDialog.Close>
          </header>
          {description && (
            <RadixDialog.Description className="dialog-description">
              {description}
            </RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
