// Static checks over the exported folder: every HTML file, the pages it links to and the ids
// its fragments name. Plain text scanning is enough: React writes every attribute double-quoted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every .html file under dir, as paths relative to it ("docs/sap/index.html"). */
export function htmlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dir, relative))) {
      const child = path.join(relative, name);
      if (statSync(path.join(dir, child)).isDirectory()) walk(child);
      else if (name.endsWith('.html')) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** The site path an HTML file is served at ("docs/sap/index.html" -> "/docs/sap/"). */
export function sitePathOf(file: string): string {
  const slashed = `/${file.split(path.sep).join('/')}`;
  return slashed.endsWith('/index.html') ? slashed.slice(0, -'index.html'.length) : slashed;
}

function tagsOf(html: string): string {
  // Drop inline scripts: their JSON mentions links that are not elements of the page.
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '<script></script>');
}

export function idsIn(html: string): Set<string> {
  return new Set(
    [...tagsOf(html).matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? '')),
  );
}

export function linksIn(html: string): string[] {
  return [
    ...tagsOf(html).matchAll(/<(?:a|link|script|img|source)\b[^>]*?\s(?:href|src)="([^"]*)"/g),
  ].map((m) => decodeEntities(m[1] ?? ''));
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** The file a site path resolves to, the way a static host does, or null. */
function fileFor(dir: string, sitePath: string): string | null {
  const relative = decodeURIComponent(sitePath).replace(/^\//, '');
  const candidates =
    relative === '' || relative.endsWith('/')
      ? [path.join(relative, 'index.html')]
      : [relative, `${relative}.html`, path.join(relative, 'index.html')];
  for (const candidate of candidates) {
    const file = path.join(dir, candidate);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

/**
 * Broken internal links and anchors in an exported site: each problem names the page, the link
 * and what is wrong. External links (http:, mailto:) are not fetched.
 */
export function brokenLinks(dir: string, basePath = ''): string[] {
  const problems: string[] = [];
  const pages = new Map<string, string>();
  const html = (file: string) => {
    let text = pages.get(file);
    if (text === undefined) {
      text = readFileSync(file, 'utf8');
      pages.set(file, text);
    }
    return text;
  };
  for (const file of htmlFiles(dir)) {
    const from = sitePathOf(file);
    const base = new URL(`${basePath}${from}`, 'http://site.invalid');
    for (const link of linksIn(html(path.join(dir, file)))) {
      if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(link) && !link.startsWith('http://site.invalid'))
        continue;
      const target = new URL(link, base);
      if (!target.pathname.startsWith(`${basePath}/`)) {
        problems.push(`${from}: ${link} points outside the base path ${basePath}`);
        continue;
      }
      const targetFile = fileFor(dir, target.pathname.slice(basePath.length));
      if (!targetFile) {
        problems.push(`${from}: ${link} is missing`);
        continue;
      }
      const fragment = decodeURIComponent(target.hash.slice(1));
      if (fragment && targetFile.endsWith('.html') && !idsIn(html(targetFile)).has(fragment)) {
        problems.push(`${from}: ${link} names the anchor #${fragment}, which that page lacks`);
      }
    }
  }
  return problems;
}
