import { openDialog } from '../dialogs';

export function RoutesEmpty({ canRoute }: { canRoute: boolean }) {
  return (
    <div className="empty">
      <p>
        <strong>No routes yet.</strong>{' '}
        {canRoute ? (
          <>
            Drag a source's port (the dot on its right edge) onto a sink, use “Play on…” in a
            source's menu, or{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => openDialog({ type: 'add-route' })}
            >
              add a route
            </button>
            .
          </>
        ) : (
          'A route plays a source on a sink: add a source and a sink first.'
        )}
      </p>
    </div>
  );
}
