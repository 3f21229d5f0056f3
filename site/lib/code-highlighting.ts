// Syntax highlighting of code blocks, done at build time: the pages ship coloured HTML and no
// highlighter. The MDX pipeline (next.config.ts, @shikijs/rehype) and <HighlightedCode> for code
// in page components use these same settings. Each token carries its colour for both colour
// modes as CSS variables (--shiki-light, --shiki-dark); app/styles/mdx.css picks one. Languages
// outside the list are shown as plain text, still with their label and copy button.
import githubLight from '@shikijs/themes/github-light-default';

/**
 * GitHub's light theme with darker comments: its #6e7781 is 4.1:1 on our code background
 * (#f1f4f6), below WCAG AA's 4.5:1; #59636e (GitHub's own muted text today) is 5.6:1. Every
 * other colour of the theme, and of the dark theme, passes (checked by axe-core in e2e).
 */
const lightTheme = {
  ...JSON.parse(JSON.stringify(githubLight).replace(/#6e7781/gi, '#59636e')),
  name: 'tributary-light',
};

export const codeHighlighting = {
  themes: { light: lightTheme, dark: 'github-dark-default' },
  defaultColor: false,
  langs: ['shellscript', 'yaml', 'ini', 'powershell', 'bat', 'json', 'docker', 'typescript', 'c'],
  fallbackLanguage: 'text',
  addLanguageClass: true,
} as const;
