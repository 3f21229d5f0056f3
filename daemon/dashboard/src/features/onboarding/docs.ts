// The user documentation lives on the website (site/ + content/); the dashboard links to the
// pages in the repository unless the build names the published site (VITE_DOCS_URL).
const base = (import.meta.env.VITE_DOCS_URL as string | undefined)?.replace(/\/$/, '');

export function docsLink(page: string): string {
  return base
    ? `${base}/docs/${page}/`
    : `https://github.com/tributary-audio/tributary/blob/main/content/docs/${page}.mdx`;
}

export function flasherLink(): string {
  return base ? `${base}/esp32-flasher/` : docsLink('install-esp32');
}
