'use client';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ChunkLoadFailure } from '@/lib/chunk-loading';

interface Props {
  /** The chunk's logical name, shown when the failure is not a ChunkLoadFailure. */
  chunk: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Shows a lazily loaded part's load failure in place, with the chunk and the cause. */
export class ChunkBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`chunk ${this.props.chunk}:`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const failure =
      error instanceof ChunkLoadFailure
        ? error
        : new ChunkLoadFailure(this.props.chunk, 'script', error.message);
    return (
      <div role="alert" className="callout callout-danger chunk-error">
        <p className="callout-title">
          ChunkLoadError: the {failure.chunk} part of this page could not be loaded
        </p>
        <p>{failure.message}</p>
        <p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        </p>
      </div>
    );
  }
}
