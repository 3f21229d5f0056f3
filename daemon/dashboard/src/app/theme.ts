// Dark mode: the switch in the top bar, remembered on this device (index.html applies it before
// the first paint); without a choice, the system's.
import { useState } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'tributary-theme';

export function currentTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setState] = useState<Theme>(currentTheme);
  const set = (next: Theme) => {
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(KEY, next);
    } catch {}
    setState(next);
  };
  return [theme, set];
}
