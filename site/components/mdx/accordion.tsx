'use client';
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { useHashTarget } from './use-hash-target';

/**
 * WAI-ARIA accordion: each item is a heading holding a button (Enter/Space toggle, native);
 * Up/Down move between the item buttons, Home/End to the first/last. Items open independently.
 */
export function Accordion({ children }: { children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (!target.matches('[data-accordion-trigger]')) return;
    const triggers = [
      ...event.currentTarget.querySelectorAll<HTMLButtonElement>('[data-accordion-trigger]'),
    ].filter((trigger) => trigger.closest('.accordion') === event.currentTarget);
    const at = triggers.indexOf(target as HTMLButtonElement);
    const moves: Record<string, number> = {
      ArrowDown: (at + 1) % triggers.length,
      ArrowUp: (at - 1 + triggers.length) % triggers.length,
      Home: 0,
      End: triggers.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    triggers[next]?.focus();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: key handling delegated from the buttons
    <div className="accordion" onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}

export function AccordionItem({
  title,
  children,
  defaultOpen = false,
}: {
  title: string;
  children?: ReactNode;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  // A link to something inside a closed item opens it.
  useHashTarget((target) => {
    if (open || !document.getElementById(`${id}-panel`)?.contains(target)) return false;
    setOpen(true);
    return true;
  });
  return (
    <div className="accordion-item" data-open={open}>
      <h3 className="accordion-heading">
        <button
          type="button"
          id={`${id}-trigger`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          data-accordion-trigger=""
          className="accordion-trigger"
          onClick={() => setOpen((value) => !value)}
        >
          {title}
        </button>
      </h3>
      <section
        id={`${id}-panel`}
        aria-labelledby={`${id}-trigger`}
        hidden={!open}
        className="accordion-panel"
      >
        {children}
      </section>
    </div>
  );
}
