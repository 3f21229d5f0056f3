// Colour mode: light or dark, light until the reader picks dark, the choice kept in
// localStorage; the system setting is deliberately not consulted. The inline script in the root
// layout applies the stored choice before the first paint, so the page never flashes.

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'tributary-theme';

/** The stored choice, or 'light' when none is stored or storage is unavailable. */
export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined): Theme {
  try {
    return storage?.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

/** Shows a theme on the page and remembers it; a storage failure only loses the memory. */
export function applyTheme(
  theme: Theme,
  root: HTMLElement,
  storage: Pick<Storage, 'setItem'> | undefined,
): void {
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode or a full quota: the page still switches, the choice is just not kept.
  }
}

/** Runs in <head> before anything paints; kept tiny and self-contained. */
export const themeInitScript = `(function(){var t='light';try{if(localStorage.getItem('${THEME_STORAGE_KEY}')==='dark')t='dark'}catch(e){}var d=document.documentElement;d.dataset.theme=t;d.style.colorScheme=t})()`;
