// Builds the reference the site is measured against: an empty App Router page exported by the
// same Next.js version, with the same export settings, in site/.bench/empty-app (gitignored, so
// next, react and react-dom resolve from the repository's node_modules).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const emptyAppDir = path.join(import.meta.dirname, '..', '.bench', 'empty-app');

const files: Record<string, string> = {
  'package.json': '{ "name": "empty-next-app", "private": true, "type": "module" }\n',
  'next.config.mjs': `import path from 'node:path';
export default {
  output: 'export',
  trailingSlash: true,
  images: { unoptimized: true },
  turbopack: { root: path.resolve(import.meta.dirname, '../../..') },
};
`,
  'app/layout.jsx': `export const metadata = { title: 'Empty', description: 'An empty Next.js page.' };
export default function Layout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  'app/page.jsx': `export default function Page() {
  return <main><h1>Empty</h1></main>;
}
`,
};

/** Writes and builds the empty app; returns its export folder. */
export function buildEmptyApp(): string {
  rmSync(emptyAppDir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(emptyAppDir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const nextBin = path.join(
    import.meta.dirname,
    '..',
    '..',
    'node_modules',
    'next',
    'dist',
    'bin',
    'next',
  );
  execFileSync(process.execPath, [nextBin, 'build'], {
    cwd: emptyAppDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  return path.join(emptyAppDir, 'out');
}
