// The inline asset check (lib/asset-check.ts) run in jsdom: a stylesheet of the site's own that
// has no rules has failed, so the banner goes up; a "Loading…" placeholder parsed after that
// still says why it never finishes (before the fix, only placeholders present when the banner
// went up did, and on a loaded machine the flasher's placeholder came later: it said "Loading
// the flasher…" forever).
import { afterEach, expect, test } from '@jest/globals';
import { ASSET_ERROR_ID, assetCheckScript } from '@/lib/asset-check';

function page(withPlaceholder: boolean) {
  document.head.innerHTML = '<link rel="stylesheet" href="/_next/static/css/site.css">';
  document.body.innerHTML = withPlaceholder
    ? '<p class="chunk-loading" role="status">Loading the flasher…</p>'
    : '<main></main>';
  new Function(assetCheckScript(''))();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// The script's observers, disconnected after each test (a page's live as long as the page).
const observers: MutationObserver[] = [];
const Native = window.MutationObserver;
window.MutationObserver = class extends Native {
  constructor(callback: MutationCallback) {
    super(callback);
    observers.push(this);
  }
};

afterEach(() => {
  for (const o of observers.splice(0)) o.disconnect();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

test('a placeholder present when the banner goes up says why it never finishes', () => {
  page(true);
  expect(document.getElementById(ASSET_ERROR_ID)?.textContent).toMatch(
    /This page could not load its scripts and styles\. 1 file .* failed to load, for example .*\/_next\/static\/css\/site\.css/,
  );
  expect(document.querySelector('.chunk-loading')?.textContent).toMatch(/its scripts did not load/);
});

test('a placeholder parsed after the banner went up says so too', async () => {
  page(false);
  expect(document.getElementById(ASSET_ERROR_ID)).not.toBeNull();
  const late = document.createElement('p');
  late.className = 'chunk-loading';
  late.textContent = 'Loading the flasher…';
  document.querySelector('main')?.appendChild(late);
  await settle();
  expect(late.textContent).toMatch(/its scripts did not load/);
});

test('a banner removed by the page is put back', async () => {
  page(true);
  document.getElementById(ASSET_ERROR_ID)?.remove();
  await settle();
  expect(document.getElementById(ASSET_ERROR_ID)).not.toBeNull();
});
