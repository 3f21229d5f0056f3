// The panels under the Active Source: Sources | Routes | Sinks with the route lines between
// them (one list with collapsible sections on a phone), or the route matrix. The search query
// lives in a store (registry.ts) that only the top bar and this component read: a key typed in
// the search renders these, not the dashboard around them (the drag-and-drop context re-rendered
// every sink card on each key, npm run bench -- dashboard).
import { DropdownMenu } from 'radix-ui';
import { lazy, memo, type ReactNode, type RefObject, Suspense } from 'react';
import type { Config, Route, Sink, Source } from '../../api/schema';
import { matchesQuery } from '../../lib/search';
import { PlusIcon } from '../../ui/icons';
import { type DialogRequest, openDialog } from '../dialogs';
import { RoutesEmpty } from '../onboarding/RoutesEmpty';
import { SinksEmpty } from '../onboarding/SinksEmpty';
import { SourcesEmpty } from '../onboarding/SourcesEmpty';
import { RouteCard } from '../routes/RouteCard';
import { SinkCard } from '../sinks/SinkCard';
import { SourceCard } from '../sources/SourceCard';
import { Column } from './Column';
import { RouteLines } from './RouteLines';
import { routesView, searchQuery } from './registry';

/** The matrix view loads when first shown (about 1.5 KB gzipped off the first load). */
const RouteMatrix = lazy(() => import('../routes/RouteMatrix'));

function filter(config: Config, query: string) {
  return {
    sources: config.sources.filter((s) =>
      matchesQuery(query, [
        s.name,
        s.ip,
        s.tag,
        s.rtp ? 'rtp' : 'scream',
        s.is_group ? 'group' : null,
        ...s.group_members,
      ]),
    ),
    sinks: config.sinks.filter((s) =>
      matchesQuery(query, [
        s.name,
        s.ip,
        s.port,
        s.protocol,
        s.is_group ? 'group' : null,
        ...s.group_members,
      ]),
    ),
    routes: config.routes.filter((r) => matchesQuery(query, [r.name, r.source, r.sink])),
  };
}

/** A panel's entries, the ids of those the search shows, and the favorites among them. */
function panel<T extends { config_id: string }>(config: Config, all: readonly T[], shown: T[]) {
  const ids = new Set(all.map((e) => e.config_id));
  return {
    entries: all,
    matching: new Set(shown.map((e) => e.config_id)),
    favorites: config.favorites.filter((id) => ids.has(id)),
  };
}

interface Props {
  readonly config: Config;
  readonly desktop: boolean;
  readonly columnsRef: RefObject<HTMLDivElement | null>;
}

export const Panels = memo(function Panels({ config, desktop, columnsRef }: Props) {
  const query = searchQuery.useValue();
  const matrix = routesView.useValue() === 'matrix' && desktop;
  const shown = filter(config, query);
  return (
    <>
      {matrix ? (
        <Suspense fallback={<p className="loading">Loading the matrix…</p>}>
          <RouteMatrix sources={shown.sources} sinks={shown.sinks} routes={config.routes} />
        </Suspense>
      ) : (
        <div className="columns" ref={columnsRef}>
          <Column<Source>
            kind="source"
            title="Sources"
            {...panel(config, config.sources, shown.sources)}
            renderCard={(source, handle) => <SourceCard source={source} handle={handle} />}
            actions={<SourceActions />}
            empty={<SourcesEmpty />}
            collapsible={!desktop}
          />
          <Column<Route>
            kind="route"
            title="Routes"
            {...panel(config, config.routes, shown.routes)}
            renderCard={(route, handle) => <RouteCard route={route} handle={handle} />}
            actions={
              <DialogButton dialog={{ type: 'add-route' }}>
                <PlusIcon /> Add Route
              </DialogButton>
            }
            empty={<RoutesEmpty canRoute={config.sources.length > 0 && config.sinks.length > 0} />}
            collapsible={!desktop}
          />
          <Column<Sink>
            kind="sink"
            title="Sinks"
            {...panel(config, config.sinks, shown.sinks)}
            renderCard={(sink, handle) => <SinkCard sink={sink} handle={handle} />}
            actions={
              <>
                <DialogButton dialog={{ type: 'add-sink' }}>
                  <PlusIcon /> Add Sink
                </DialogButton>
                <DialogButton dialog={{ type: 'add-group', kind: 'sink' }} secondary>
                  Create Group
                </DialogButton>
              </>
            }
            empty={<SinksEmpty />}
            collapsible={!desktop}
          />
          {desktop && <RouteLines container={columnsRef} />}
        </div>
      )}
    </>
  );
});

function SourceActions() {
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="button button-small">
          <PlusIcon /> Add Source
        </DropdownMenu.Trigger>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item
            className="menu-item"
            onSelect={() => openDialog({ type: 'add-source', rtp: false })}
          >
            Scream Source
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu-item"
            onSelect={() => openDialog({ type: 'add-source', rtp: true })}
          >
            RTP Source
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <DialogButton dialog={{ type: 'add-group', kind: 'source' }} secondary>
        Create Group
      </DialogButton>
    </>
  );
}

/** A panel's button that opens one of the dialogs. */
function DialogButton(props: { dialog: DialogRequest; secondary?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      className={`button button-small${props.secondary ? ' button-secondary' : ''}`}
      onClick={() => openDialog(props.dialog)}
    >
      {props.children}
    </button>
  );
}
