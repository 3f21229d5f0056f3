import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { ChunkBoundary } from '@/components/chunk/chunk-boundary';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadFailure,
  classifyChunkError,
  loadChunk,
} from '@/lib/chunk-loading';

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('loadChunk', () => {
  test('resolves with the module', async () => {
    await expect(loadChunk('search', async () => ({ default: 42 }))).resolves.toEqual({
      default: 42,
    });
  });

  test('times out after 120 s with an error naming the chunk', async () => {
    jest.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const pending = loadChunk('flasher', () => new Promise<never>(() => {}));
    const outcome = pending.catch((error: unknown) => error);
    jest.advanceTimersByTime(119_999);
    await Promise.resolve();
    jest.advanceTimersByTime(1);
    const error = (await outcome) as ChunkLoadFailure;
    expect(error).toBeInstanceOf(ChunkLoadFailure);
    expect(error.name).toBe('ChunkLoadError');
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      'Loading chunk "flasher" failed (timed out): no response after 120 s',
    );
  });

  test('a failed request names the chunk and the network failure', async () => {
    const failure = new Error('Failed to load chunk /_next/static/chunks/abc.js');
    failure.name = 'ChunkLoadError';
    await expect(loadChunk('flasher', () => Promise.reject(failure))).rejects.toMatchObject({
      chunk: 'flasher',
      kind: 'network',
      message:
        'Loading chunk "flasher" failed (network error): Failed to load chunk /_next/static/chunks/abc.js',
    });
  });

  test('tells network failures from scripts that threw', () => {
    expect(classifyChunkError(new TypeError('Failed to fetch dynamically imported module'))).toBe(
      'network',
    );
    expect(classifyChunkError(new ReferenceError('esptool is not defined'))).toBe('script');
  });
});

describe('ChunkBoundary', () => {
  test('shows the chunk, the failure and a reload button instead of the part', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    const Broken = lazy(() =>
      loadChunk('flasher', () => Promise.reject(new Error('Loading chunk 7 failed.'))),
    );
    render(
      <ChunkBoundary chunk="flasher">
        <Suspense fallback={<p>loading</p>}>
          <Broken />
        </Suspense>
      </ChunkBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('the flasher part of this page could not be loaded');
    expect(alert.textContent).toContain('Loading chunk "flasher" failed (network error)');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });
});
