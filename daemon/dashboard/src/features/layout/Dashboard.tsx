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
import { useRef, useState } from 'react';
import { useLive } from '../../api/hooks';
import { DESKTOP, useMediaQuery } from '../../app/media-query';
import { useShortcuts } from '../../app/useShortcuts';
import { Toasts } from '../../ui/toasts';
import { DialogHost } from '../DialogHost';
import { ActiveSource, useActiveSource } from './ActiveSource';
import { Banners } from './Banners';
import { announcements, collisions, keyboardCoordinates, onDragEnd } from './drag';
import { Panels } from './Panels';
import { TopBar } from './TopBar';
import { VisualizerSlot } from './VisualizerSlot';

export function Dashboard() {
  const config = useLive((s) => s.config);
  const connection = useLive((s) => s.connection);
  const searchRef = useRef<HTMLInputElement>(null);
  const columnsRef = useRef<HTMLDivElement>(null);
  const desktop = useMediaQuery(DESKTOP);
  const active = useActiveSource();
  const [dragging, setDragging] = useState<string | null>(null);
  useShortcuts(active, searchRef);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  return (
    <>
      <a href="#panels" className="skip-link">
        Skip to the panels
      </a>
      <TopBar searchRef={searchRef} />
      <main id="panels" className="dashboard" tabIndex={-1}>
        {!config ? (
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
              <Panels config={config} desktop={desktop} columnsRef={columnsRef} />
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
