// One panel (Sources, Routes or Sinks): its favorites pinned on top in their dragged order, then
// the rest. On a phone the panel is a collapsible section. The search hides the cards that do not
// match rather than unmounting them: bringing 112 cards back (sliders, switches, meters) took
// up to 0.5 s a key at 32x16x64 (npm run bench -- dashboard). A hidden card's item keeps its
// style and layout, skipped (`.cards > li[hidden]` in cards.css), so showing it again costs
// neither.
import { rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type ReactNode, useId, useState } from 'react';
import type { Kind } from '../../api/client';
import { ChevronIcon, GripIcon } from '../../ui/icons';

interface Entry {
  readonly config_id: string;
  readonly name: string;
}

interface Props<T extends Entry> {
  readonly kind: Kind;
  readonly title: string;
  /** Every entry, in configuration order. */
  readonly entries: readonly T[];
  /** config_ids of the entries that match the search. */
  readonly matching: ReadonlySet<string>;
  /** config_ids of this panel's favorites, in their order. */
  readonly favorites: readonly string[];
  readonly renderCard: (entry: T, handle?: ReactNode) => ReactNode;
  readonly actions: ReactNode;
  /** Shown when there are none at all (first run). */
  readonly empty: ReactNode;
  readonly collapsible: boolean;
}

export function Column<T extends Entry>(props: Props<T>) {
  const { kind, title, entries, matching, favorites, renderCard, actions, empty, collapsible } =
    props;
  const total = entries.length;
  const [open, setOpen] = useState(true);
  const headingId = useId();
  const bodyId = useId();
  const byId = new Map(entries.map((e) => [e.config_id, e]));
  const pinned = favorites.map((id) => byId.get(id)).filter((e): e is T => e !== undefined);
  const rest = entries.filter((e) => !favorites.includes(e.config_id));
  const shows = (e: T) => matching.has(e.config_id);
  const expanded = !collapsible || open;

  return (
    <section className="column" data-kind={kind} aria-labelledby={headingId}>
      <header className="column-header">
        <h2 id={headingId} className="column-title">
          {collapsible ? (
            <button
              type="button"
              className="column-toggle"
              aria-expanded={open}
              aria-controls={bodyId}
              onClick={() => setOpen(!open)}
            >
              <ChevronIcon />
              {title} <span className="count">{total}</span>
            </button>
          ) : (
            <>
              {title} <span className="count">{total}</span>
            </>
          )}
        </h2>
        <div className="column-actions">{actions}</div>
      </header>
      <div className="column-scroll" id={bodyId} hidden={!expanded}>
        {total === 0 && empty}
        {total > 0 && matching.size === 0 && (
          <p className="muted no-match">Nothing matches the search.</p>
        )}
        {pinned.length > 0 && (
          <>
            <h3 className="list-heading" hidden={!pinned.some(shows)}>
              Favorites
            </h3>
            <SortableContext items={pinned.map((e) => e.config_id)} strategy={rectSortingStrategy}>
              <ul className="cards" aria-label={`Favorite ${title.toLowerCase()}`}>
                {pinned.map((entry) => (
                  <SortableCard
                    key={entry.config_id}
                    kind={kind}
                    entry={entry}
                    hidden={!shows(entry)}
                  >
                    {(handle) => renderCard(entry, handle)}
                  </SortableCard>
                ))}
              </ul>
            </SortableContext>
          </>
        )}
        {rest.length > 0 && (
          <>
            {pinned.length > 0 && (
              <h3 className="list-heading" hidden={!rest.some(shows)}>
                All {title.toLowerCase()}
              </h3>
            )}
            <ul className="cards" aria-label={title}>
              {rest.map((entry) => (
                <li key={entry.config_id} hidden={!shows(entry)}>
                  {renderCard(entry)}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

/** A favorite, reordered by dragging its grip (or with the keyboard: Space, arrows, Space). */
function SortableCard({
  kind,
  entry,
  hidden,
  children,
}: {
  kind: Kind;
  entry: Entry;
  hidden: boolean;
  children: (handle: ReactNode) => ReactNode;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: entry.config_id, data: { type: 'favorite', kind } });
  const handle = (
    <button
      ref={setActivatorNodeRef}
      type="button"
      className="icon-button grip"
      aria-label={`Reorder ${entry.name}`}
      {...attributes}
      {...listeners}
    >
      <GripIcon />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-dragging={isDragging || undefined}
      hidden={hidden}
    >
      {children(handle)}
    </li>
  );
}
