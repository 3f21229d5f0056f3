// Lazy loading of script chunks with a deadline and errors that say what failed. Every lazily
// loaded part of the site (the flasher, the search dialog) goes through loadChunk, so a reader
// on a flaky connection sees "the flasher chunk failed to load: network error (...)" instead of a
// blank area, and a stalled request ends after 120 s instead of spinning forever.

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type ChunkFailureKind = 'timeout' | 'network' | 'script';

export class ChunkLoadFailure extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    /** The logical name of the chunk ('flasher', 'search'). */
    readonly chunk: string,
    readonly kind: ChunkFailureKind,
    /** The underlying error's message (it names the chunk file when the bundler knows it). */
    readonly detail: string,
  ) {
    super(`Loading chunk "${chunk}" failed (${kindLabel[kind]}): ${detail}`);
  }
}

const kindLabel: Record<ChunkFailureKind, string> = {
  timeout: 'timed out',
  network: 'network error',
  script: 'script error',
};

/** Tells a failed request (offline, 404, blocked) from a chunk that loaded and then threw. */
export function classifyChunkError(error: unknown): ChunkFailureKind {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /ChunkLoadError|Failed to (load|fetch)|Loading (CSS )?chunk|import|network|NetworkError/i.test(
    text,
  )
    ? 'network'
    : 'script';
}

/** Runs a dynamic import, failing with a ChunkLoadFailure on error or after timeoutMs. */
export function loadChunk<T>(
  chunk: string,
  loader: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new ChunkLoadFailure(
          chunk,
          'timeout',
          `no response after ${Math.round(timeoutMs / 1000)} s`,
        ),
      );
    }, timeoutMs);
    loader().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const detail = error instanceof Error ? error.message : String(error);
        reject(new ChunkLoadFailure(chunk, classifyChunkError(error), detail));
      },
    );
  });
}
