import { describe, expect, jest, test } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PageError from '@/app/error';

describe('the page error boundary', () => {
  test('names a failed chunk and the failure, with reload and retry', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const error = new Error('Loading chunk 42 failed. (error: /_next/static/chunks/42.js)');
    error.name = 'ChunkLoadError';
    const reset = jest.fn();
    render(<PageError error={error} reset={reset} />);
    expect(screen.getByRole('heading').textContent).toBe('Part of this page could not be loaded');
    expect(screen.getByRole('alert').textContent).toContain(
      'ChunkLoadError: Loading chunk 42 failed. (error: /_next/static/chunks/42.js)',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reset).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });

  test('other failures show their own name and message', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    render(<PageError error={new TypeError('x is undefined')} reset={() => {}} />);
    expect(screen.getByRole('heading').textContent).toBe('This page failed to load');
    expect(screen.getByRole('alert').textContent).toContain('TypeError: x is undefined');
  });
});
