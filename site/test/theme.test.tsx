import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { applyTheme, readStoredTheme, THEME_STORAGE_KEY, themeInitScript } from '@/lib/theme';

const root = document.documentElement;

function runInitScript() {
  // The same string the root layout puts in <head>.
  new Function(themeInitScript)();
}

beforeEach(() => {
  localStorage.clear();
  delete root.dataset.theme;
  root.style.colorScheme = '';
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('colour mode', () => {
  test('starts light when nothing is stored, even if the system prefers dark', () => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('dark'),
      media: query,
    })) as unknown as typeof window.matchMedia;
    runInitScript();
    expect(root.dataset.theme).toBe('light');
    expect(readStoredTheme(localStorage)).toBe('light');
  });

  test('the head script applies a stored dark choice before React runs', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    runInitScript();
    expect(root.dataset.theme).toBe('dark');
    expect(root.style.colorScheme).toBe('dark');
  });

  test('an unreadable or unknown stored value falls back to light', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    runInitScript();
    expect(root.dataset.theme).toBe('light');
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readStoredTheme(broken)).toBe('light');
  });

  test('the toggle switches the page and persists the choice', async () => {
    runInitScript();
    render(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: 'Dark mode' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    await userEvent.click(toggle);
    expect(root.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');

    // A reload: the stored value drives the next page's first paint.
    delete root.dataset.theme;
    runInitScript();
    expect(root.dataset.theme).toBe('dark');

    await userEvent.click(toggle);
    expect(root.dataset.theme).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  test('the toggle follows a change made elsewhere (another component or the head script)', async () => {
    render(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: 'Dark mode' });
    await act(async () => {
      root.dataset.theme = 'dark';
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });

  test('a storage failure still switches the page', () => {
    const failing = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    applyTheme('dark', root, failing);
    expect(root.dataset.theme).toBe('dark');
  });
});
