'use client';
import {
  Children,
  isValidElement,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  useId,
  useRef,
  useState,
} from 'react';
import { useHashTarget } from './use-hash-target';

export interface TabProps {
  label: string;
  children?: ReactNode;
}

/** One panel of <Tabs>; its label becomes the tab's name. Rendered by Tabs, not on its own. */
export function Tab({ children }: TabProps) {
  return <>{children}</>;
}

/**
 * WAI-ARIA tabs with automatic activation: Left/Right move between tabs (wrapping), Home/End go
 * to the first/last, Tab moves into the panel. Every panel stays in the HTML (hidden), so search
 * indexes and find-in-page see the text of all tabs.
 */
export function Tabs({ children }: { children: ReactNode }) {
  const tabs = Children.toArray(children).filter(
    (child): child is ReactElement<TabProps> =>
      isValidElement<TabProps>(child) && typeof child.props.label === 'string',
  );
  const [selected, setSelected] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();

  // A link to a heading inside a hidden panel selects that panel's tab.
  useHashTarget((target) => {
    const index = tabs.findIndex((_, i) =>
      document.getElementById(`${id}-panel-${i}`)?.contains(target),
    );
    if (index < 0 || index === selected) return false;
    setSelected(index);
    return true;
  });

  const select = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    setSelected(next);
    buttons.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: selected + 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };

  return (
    <div className="tabs">
      <div role="tablist" className="tab-list" aria-orientation="horizontal">
        {tabs.map((tab, index) => (
          <button
            key={tab.props.label}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === selected}
            aria-controls={`${id}-panel-${index}`}
            tabIndex={index === selected ? 0 : -1}
            className="tab"
            onClick={() => setSelected(index)}
            onKeyDown={onKeyDown}
          >
            {tab.props.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.props.label}
          role="tabpanel"
          id={`${id}-panel-${index}`}
          aria-labelledby={`${id}-tab-${index}`}
          hidden={index !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern focuses panels
          tabIndex={0}
          className="tab-panel"
        >
          {tab.props.children}
        </div>
      ))}
    </div>
  );
}
