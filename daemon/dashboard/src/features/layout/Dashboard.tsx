// The dashboard: top bar, Active Source, what needs attention, then Sources | Routes | Sinks
// (one list with collapsible sections on a phone) with the route lines between them on a desktop.
import {
  DndContext,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { DropdownMenu } from 'radix-ui';
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { useLive } from '../../api/hooks';
import type { Config, Route, Sink, Source } from '../../api/schema';
import { DESKTOP, useMediaQuery } from '../../app/media-query';
import { useShortcuts } from '../../app/useShortcuts';
import { matchesQuery } from '../../lib/search';
import { PlusIcon } from '../../ui/icons';
import { Toasts } from '../../ui/toasts';
import { DialogHost } from '../DialogHost';
import { type DialogRequest, openDialog } from '../dialogs';
import { RoutesEmpty } from '../onboarding/RoutesEmpty';
import { SinksEmpty } from '../onboarding/SinksEmpty';
import { SourcesEmpty } from '../onboarding/SourcesEmpty';
import { RouteCard } from '../routes/RouteCard';
import { SinkCard } from '../sinks/SinkCard';
import { SourceCard } from '../sources/SourceCard';
import { ActiveSource, useActiveSource } from './ActiveSource';
import { Banners } from './Banners';
import { Column } from './Column';
import { announcements, collisions, keyboardCoordinates, onDragEnd } from './drag';
import { RouteLines } from './RouteLines';
import { routesView } from './registry';
import { TopBar } from './TopBar';
import { VisualizerSlot } from './VisualizerSlot';

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

export function Dashboard() {
  const config = useLive((s) => s.config);
  const connection = useLive((s) => s.connection);
  const [query, setQuery] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const columnsRef = useRef<HTMLDivElement>(null);
  const desktop = useMediaQuery(DESKTOP);
  const active = useActiveSource();
  const matrix = routesView.useValue() === 'matrix' && desktop;
  const [dragging, setDragging] = useState<string | null>(null);
  useShortcuts(active, searchRef);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  const shown = config ? filter(config, query) : null;
  return (
    <>
      <a href="#panels" className="skip-link">
        Skip to the panels
      </a>
      <TopBar query={query} onQuery={setQuery} searchRef={searchRef} />
      <main id="panels" className="dashboard" tabIndex={-1}>
        {!config || !shown ? (
          <p className="loading" role="status">
            {connection === 'reconnecting'
              ? 'Reconnecting to the server…'
              : 'Connecting to the server…'}
          </p>
        ) : (
          <>
            <ActiveSource />
            <Banners />
            <DndContext
              sensors={sensors}
              collisionDetection={collisions}
              accessibility={{ announcements }}
              onDragStart={({ active: a }: DragStartEvent) =>
                setDragging(
                  (a.data.current as { type?: string; name?: string })?.type === 'connect'
                    ? (a.data.current as { name: string }).name
                    : null,
                )
              }
              onDragEnd={(event) => {
                setDragging(null);
                onDragEnd(event);
              }}
              onDragCancel={() => setDragging(null)}
            >
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
                    empty={
                      <RoutesEmpty
                        canRoute={config.sources.length > 0 && config.sinks.length > 0}
                      />
                    }
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
              <DragOverlay dropAnimation={null}>
                {dragging && <div className="drag-chip">{dragging} → drop on a sink</div>}
              </DragOverlay>
            </DndContext>
            <VisualizerSlot />
          </>
        )}
      </main>
      <DialogHost />
      <Toasts />
    </>
  );
}

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
