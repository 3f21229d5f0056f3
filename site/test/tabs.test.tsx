import { describe, expect, test } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tab, Tabs } from '@/components/mdx/tabs';

function renderTabs() {
  render(
    <Tabs>
      <Tab label="Sink API">sinks text</Tab>
      <Tab label="Source API">sources text</Tab>
      <Tab label="Route API">routes text</Tab>
    </Tabs>,
  );
  return screen.getAllByRole('tab');
}

const selected = () =>
  screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true');

describe('Tabs', () => {
  test('renders a tablist whose tabs control their panels', () => {
    const tabs = renderTabs();
    expect(screen.getByRole('tablist')).toBeTruthy();
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Sink API', 'Source API', 'Route API']);
    for (const tab of tabs) {
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      expect(panel?.getAttribute('role')).toBe('tabpanel');
      expect(panel?.getAttribute('aria-labelledby')).toBe(tab.id);
    }
    expect(selected()?.textContent).toBe('Sink API');
    expect(screen.getByRole('tabpanel').textContent).toBe('sinks text');
    // Hidden panels stay in the document for search and find-in-page.
    expect(document.body.textContent).toContain('routes text');
  });

  test('only the selected tab is in the tab order', () => {
    const tabs = renderTabs();
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
  });

  test('arrow keys move and wrap, Home and End jump, focus follows selection', async () => {
    const tabs = renderTabs();
    await userEvent.tab();
    expect(document.activeElement).toBe(tabs[0]);

    await userEvent.keyboard('{ArrowRight}');
    expect(selected()?.textContent).toBe('Source API');
    expect(document.activeElement).toBe(tabs[1]);
    expect(screen.getByRole('tabpanel').textContent).toBe('sources text');

    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(selected()?.textContent).toBe('Sink API');

    await userEvent.keyboard('{ArrowLeft}');
    expect(selected()?.textContent).toBe('Route API');

    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(tabs[0]);
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(tabs[2]);
    expect(tabs[2]?.tabIndex).toBe(0);
    expect(tabs[0]?.tabIndex).toBe(-1);
  });

  test('Tab from the tab list moves into the panel', async () => {
    renderTabs();
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
  });

  test('clicking a tab selects it', async () => {
    renderTabs();
    await userEvent.click(screen.getByRole('tab', { name: 'Route API' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('routes text');
  });
});

describe('Tabs and links', () => {
  test('a #fragment pointing into a hidden panel selects its tab', async () => {
    window.location.hash = '#route-heading';
    render(
      <Tabs>
        <Tab label="Sink API">sinks text</Tab>
        <Tab label="Route API">
          <h3 id="route-heading">Routes</h3>
        </Tab>
      </Tabs>,
    );
    await screen.findByRole('tab', { name: 'Route API', selected: true });
    expect(screen.getByRole('tabpanel').textContent).toBe('Routes');
    window.location.hash = '';
  });
});
