// The one place that names the site's external links and fixed texts. Components read these;
// MDX pages write the same URLs literally (see the docs contract in content/README.md).

export interface ExternalLink {
  /** Short label shown in the top bar and footer. */
  label: string;
  /** Longer description used for the accessible name and tooltips. */
  description: string;
  href: string;
}

export const siteConfig = {
  name: 'Tributary',
  tagline: 'Network audio routing for your home and local network',
  description:
    'Tributary routes PCM audio between Scream and RTP senders and receivers: resampling, ' +
    'channel mapping, an 18-band equalizer, volume and delay, controlled from a web dashboard.',
  repository: {
    label: 'GitHub',
    description: 'Tributary source code on GitHub',
    href: 'https://github.com/tributary-audio/tributary',
  } satisfies ExternalLink,
  /** Where a docs page's source is edited: + "content/docs/<id>.mdx". */
  editBase: 'https://github.com/tributary-audio/tributary/edit/main/',
  chat: {
    label: 'Matrix chat',
    description: 'Tributary community chat on Matrix',
    href: 'https://matrix.to/#/#tributary:matrix.org',
  } satisfies ExternalLink,
} as const;

export const externalLinks: readonly ExternalLink[] = [siteConfig.repository, siteConfig.chat];
