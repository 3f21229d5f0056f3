import { describe, expect, test } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Accordion, AccordionItem } from '@/components/mdx/accordion';

function renderAccordion() {
  render(
    <Accordion>
      <AccordionItem title="Sources">sources text</AccordionItem>
      <AccordionItem title="Sinks">sinks text</AccordionItem>
      <AccordionItem title="Routes">routes text</AccordionItem>
    </Accordion>,
  );
  return screen.getAllByRole('button');
}

const panelOf = (button: HTMLElement) =>
  document.getElementById(button.getAttribute('aria-controls') ?? '') as HTMLElement;

describe('Accordion', () => {
  test('each item is a heading with a collapsed button controlling a labelled region', () => {
    const buttons = renderAccordion();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Sources',
      'Sinks',
      'Routes',
    ]);
    for (const button of buttons) {
      expect(button.getAttribute('aria-expanded')).toBe('false');
      const panel = panelOf(button);
      expect(panel.hidden).toBe(true);
      expect(panel.getAttribute('aria-labelledby')).toBe(button.id);
    }
  });

  test('Enter and Space toggle an item; items open independently', async () => {
    const [sources, sinks] = renderAccordion();
    await userEvent.tab();
    expect(document.activeElement).toBe(sources);
    await userEvent.keyboard('{Enter}');
    expect(sources?.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: 'Sources' }).textContent).toBe('sources text');

    await userEvent.tab();
    expect(document.activeElement).toBe(sinks);
    await userEvent.keyboard(' ');
    expect(sinks?.getAttribute('aria-expanded')).toBe('true');
    expect(sources?.getAttribute('aria-expanded')).toBe('true');

    await userEvent.keyboard(' ');
    expect(sinks?.getAttribute('aria-expanded')).toBe('false');
    expect(panelOf(sinks as HTMLElement).hidden).toBe(true);
  });

  test('Up and Down move between items and wrap; Home and End jump', async () => {
    const buttons = renderAccordion();
    await userEvent.tab();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(buttons[1]);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(buttons[0]);
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(buttons[2]);
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(buttons[0]);
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(buttons[2]);
    // Moving focus does not toggle anything.
    expect(buttons.every((b) => b.getAttribute('aria-expanded') === 'false')).toBe(true);
  });
});

describe('Accordion and links', () => {
  test('a #fragment pointing into a closed item opens it', async () => {
    window.location.hash = '#sinks-detail';
    render(
      <Accordion>
        <AccordionItem title="Sources">sources text</AccordionItem>
        <AccordionItem title="Sinks">
          <p id="sinks-detail">sinks text</p>
        </AccordionItem>
      </Accordion>,
    );
    expect((await screen.findByRole('button', { name: 'Sinks', expanded: true })).id).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sources' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    window.location.hash = '';
  });
});
