import { describe, expect, test } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SiteFooter } from '@/components/layout/site-footer';
import { SiteHeader } from '@/components/layout/site-header';
import { siteConfig } from '@/lib/site-config';

describe('site header', () => {
  test('has the logo home link, Docs, Downloads and both external links', () => {
    render(<SiteHeader />);
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Tributary' }).getAttribute('href')).toBe('/');
    expect(within(banner).getByRole('link', { name: 'Docs' }).getAttribute('href')).toBe('/docs/');
    expect(within(banner).getByRole('link', { name: 'Downloads' }).getAttribute('href')).toBe(
      '/downloads/',
    );
    expect(
      within(banner).getByRole('link', { name: siteConfig.repository.label }).getAttribute('href'),
    ).toBe(siteConfig.repository.href);
    expect(
      within(banner).getByRole('link', { name: siteConfig.chat.label }).getAttribute('href'),
    ).toBe(siteConfig.chat.href);
    expect(within(banner).getByRole('link', { name: 'Skip to content' })).toBeTruthy();
  });

  test('the menu button opens and closes the collapsible menu (and Escape closes it)', async () => {
    render(<SiteHeader />);
    const button = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(menu?.dataset.open).toBe('false');

    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(menu?.dataset.open).toBe('true');

    await userEvent.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    await userEvent.click(button);
    await userEvent.click(button);
    expect(menu?.dataset.open).toBe('false');
  });

  test('has the search button with its keyboard shortcut and the theme switch', () => {
    render(<SiteHeader />);
    const search = screen.getByRole('button', { name: /Search/ });
    expect(search.getAttribute('aria-keyshortcuts')).toContain('/');
    expect(screen.getByRole('button', { name: 'Dark mode' })).toBeTruthy();
  });
});

describe('site footer', () => {
  test('shows the current year and the same external links', () => {
    render(<SiteFooter />);
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()} Tributary`);
    for (const link of [siteConfig.repository, siteConfig.chat]) {
      expect(within(footer).getByRole('link', { name: link.label }).getAttribute('href')).toBe(
        link.href,
      );
    }
  });
});
