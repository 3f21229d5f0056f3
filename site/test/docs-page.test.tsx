import { describe, expect, test } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { DocsPage } from '@/components/docs/docs-page';
import { resolveDocPath } from '@/lib/docs-nav';

function Body() {
  return <p>page body</p>;
}

describe('<DocsPage>', () => {
  test('renders the MDX content under its metadata title, with sidebar, breadcrumbs and pager', () => {
    const doc = resolveDocPath(['sap']);
    render(<DocsPage doc={doc} module={{ default: Body, metadata: { title: 'SAP discovery' } }} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('SAP discovery');
    expect(screen.getByText('page body')).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Documentation' });
    const current = within(sidebar).getByRole('link', { current: 'page' });
    expect(current.textContent).toBe(doc.page.title);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Docs' }).getAttribute('href')).toBe('/docs/');
    const pager = screen.getByRole('navigation', { name: 'Previous and next pages' });
    expect(
      within(pager)
        .getByRole('link', { name: /Previous/ })
        .getAttribute('href'),
    ).toBe(`/docs/${doc.previous?.segment}/`);
    expect(within(pager).getByRole('link', { name: /Next/ }).getAttribute('href')).toBe(
      `/docs/${doc.next?.segment}/`,
    );
  });

  test('"Edit this page" links the source file; "On this page" lists the exported headings', () => {
    const doc = resolveDocPath(['sap']);
    const tableOfContents = [
      { depth: 2 as const, id: 'how-it-works', text: 'How it works' },
      { depth: 3 as const, id: 'ports', text: 'Ports' },
    ];
    render(<DocsPage doc={doc} module={{ default: Body, tableOfContents }} />);
    expect(
      screen.getByRole('link', { name: 'Edit this page on GitHub' }).getAttribute('href'),
    ).toBe('https://github.com/tributary-audio/tributary/edit/main/content/docs/sap.mdx');
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    expect(
      within(toc)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href'), a.closest('li')?.className]),
    ).toEqual([
      ['How it works', '#how-it-works', ''],
      ['Ports', '#ports', 'docs-toc-sub'],
    ]);
  });

  test('one heading makes no "On this page" list', () => {
    const tableOfContents = [{ depth: 2 as const, id: 'only', text: 'Only' }];
    render(<DocsPage doc={resolveDocPath(['sap'])} module={{ default: Body, tableOfContents }} />);
    expect(screen.queryByRole('navigation', { name: 'On this page' })).toBeNull();
  });

  test('a page whose MDX file is missing shows a clear placeholder, not an error', () => {
    render(<DocsPage doc={resolveDocPath(['webrtc'])} module={null} />);
    expect(screen.queryByRole('link', { name: 'Edit this page on GitHub' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('WebRTC listening');
    expect(screen.getByText(/This page is being written/).textContent).toContain(
      'content/docs/webrtc.mdx',
    );
  });

  test('an alias says which page it shows and links its own address', () => {
    render(<DocsPage doc={resolveDocPath(['install-raspberry-pi'])} module={null} />);
    const note = screen.getByText(/This is the Raspberry Pi sender installation page/);
    expect(within(note).getByRole('link').getAttribute('href')).toBe('/docs/install-rpi-sender/');
  });

  test('search indexes a page once: its own address is indexed, an alias of it is not', () => {
    const indexed = (segment: string) => {
      const { container, unmount } = render(
        <DocsPage doc={resolveDocPath([segment])} module={{ default: Body }} />,
      );
      const article = container.querySelector('article');
      const body = article?.hasAttribute('data-pagefind-body');
      unmount();
      return body;
    };
    expect(indexed('install-rpi-sender')).toBe(true);
    expect(indexed('install-raspberry-pi')).toBe(false);
    expect(indexed('linux-receiver')).toBe(true);
    expect(indexed('raspberry-pi')).toBe(false);
  });
});
