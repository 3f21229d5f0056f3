// The typed documentation navigation: one source for the sidebar, the breadcrumbs, the
// previous/next links and the URL segments the catch-all docs route exports. Every page id has
// one MDX file, content/docs/<id>.mdx. Segment aliases show another page's content.

/** Every docs page, by the id of its MDX file. */
export const pageIds = [
  'overview',
  'api',
  'install-tributary',
  'install-windows-app',
  'install-esp32',
  'install-windows-sender',
  'install-windows-receiver',
  'install-linux-receiver',
  'install-rpi-sender',
  'docker-sources',
  'rtp-configuration',
  'mp3-stream',
  'configuration',
  'ui',
  'homeassistant',
  'vnc',
  'plugins',
  'processor',
  'autoconfig',
  'scream-source',
  'rtp-source',
  'command_receiver',
  'windows-app',
  'esp32',
  'docker',
  'linux-receiver',
  'android-receiver',
  'webrtc',
  'sap',
] as const;

export type PageId = (typeof pageIds)[number];

export interface NavPage {
  id: PageId;
  /** The URL segment under /docs/ ('' for the overview at /docs/). */
  segment: string;
  /** The label in the sidebar, breadcrumbs and previous/next links. */
  title: string;
  /** False for pages the spec shows without the "Docs > title" breadcrumb. */
  breadcrumb?: boolean;
}

export interface NavGroup {
  title: string;
  pages: readonly NavPage[];
}

export interface SegmentAlias {
  /** The page whose content the alias shows. */
  id: PageId;
  /** The document title at the alias, saying which page it shows. */
  title: string;
  /** Said at the top of the page, so readers know where they are. */
  note: string;
}

export const navGroups: readonly NavGroup[] = [
  { title: 'Overview', pages: [{ id: 'overview', segment: '', title: 'Overview' }] },
  { title: 'API Reference', pages: [{ id: 'api', segment: 'api', title: 'API Reference' }] },
  {
    title: 'Installation Guides',
    pages: [
      { id: 'install-tributary', segment: 'install-tributary', title: 'Server installation' },
      { id: 'install-windows-app', segment: 'install-windows-app', title: 'Windows desktop app' },
      { id: 'install-esp32', segment: 'install-esp32', title: 'ESP32-S3 installation' },
      { id: 'install-windows-sender', segment: 'install-windows-sender', title: 'Windows sender' },
      {
        id: 'install-windows-receiver',
        segment: 'install-windows-receiver',
        title: 'Windows receiver',
      },
      {
        id: 'install-linux-receiver',
        segment: 'install-linux-receiver',
        title: 'Linux receiver',
      },
      { id: 'install-rpi-sender', segment: 'install-rpi-sender', title: 'Raspberry Pi sender' },
    ],
  },
  {
    title: 'Audio Sources',
    pages: [
      { id: 'scream-source', segment: 'scream-source', title: 'Scream audio source' },
      { id: 'rtp-source', segment: 'rtp-source', title: 'RTP audio sources' },
      {
        id: 'rtp-configuration',
        segment: 'rtp-configuration',
        title: 'RTP audio streaming guide',
        breadcrumb: false,
      },
      { id: 'docker-sources', segment: 'docker-sources', title: 'Docker audio sources' },
    ],
  },
  {
    title: 'User Guides',
    pages: [
      { id: 'ui', segment: 'ui', title: 'UI guide' },
      { id: 'configuration', segment: 'configuration', title: 'Configuration' },
      { id: 'command_receiver', segment: 'command_receiver', title: 'Media controls' },
    ],
  },
  {
    title: 'Platforms',
    pages: [
      { id: 'windows-app', segment: 'windows-app', title: 'Windows desktop app' },
      { id: 'linux-receiver', segment: 'linux-receiver', title: 'Linux and Raspberry Pi' },
      { id: 'esp32', segment: 'esp32', title: 'ESP32-S3 transceiver' },
      { id: 'docker', segment: 'docker', title: 'Docker deployment' },
      { id: 'android-receiver', segment: 'android-receiver', title: 'Android receiver' },
    ],
  },
  {
    title: 'Streaming Protocols',
    pages: [
      { id: 'mp3-stream', segment: 'mp3-stream', title: 'MP3 stream URLs' },
      { id: 'webrtc', segment: 'webrtc', title: 'WebRTC listening' },
      { id: 'sap', segment: 'sap', title: 'SAP discovery' },
    ],
  },
  {
    title: 'Integration',
    pages: [
      { id: 'homeassistant', segment: 'homeassistant', title: 'Home Assistant' },
      { id: 'vnc', segment: 'vnc', title: 'VNC integration' },
      { id: 'plugins', segment: 'plugins', title: 'Plugins' },
    ],
  },
  {
    title: 'Advanced Topics',
    pages: [
      { id: 'processor', segment: 'processor', title: 'Technical details' },
      { id: 'autoconfig', segment: 'autoconfig', title: 'mDNS autoconfiguration' },
    ],
  },
];

/** URL segments that show another page: both readings of the spec stand. */
export const segmentAliases: Readonly<Record<string, SegmentAlias>> = {
  'raspberry-pi': {
    id: 'linux-receiver',
    title: 'Raspberry Pi: the Linux and Raspberry Pi receiver page',
    note: 'Raspberry Pi receivers use the Linux receiver page',
  },
  'install-raspberry-pi': {
    id: 'install-rpi-sender',
    title: 'Install on a Raspberry Pi: the Raspberry Pi sender page',
    note: 'This is the Raspberry Pi sender installation page',
  },
};
