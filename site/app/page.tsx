import type { Metadata } from 'next';
import Link from 'next/link';
import { type LinkCard, LinkCards } from '@/components/link-cards';
import { Card, Cards } from '@/components/mdx/cards';
import { siteConfig } from '@/lib/site-config';

export const metadata: Metadata = {
  title: { absolute: `${siteConfig.name}: network audio router for your home` },
  description: siteConfig.description,
};

const features = [
  {
    title: 'Audio Routing',
    text: 'Route any source to any sink, or to groups of them, with volume, an 18-band equalizer and delay at every level of the path.',
  },
  {
    title: 'Network Streaming',
    text: 'Scream and RTP in; Scream, RTP or TCP PCM out, resampled and channel-mapped for each receiver. Any sink also plays as an MP3 stream over HTTP and in a browser over WebRTC.',
  },
  {
    title: 'Web Interface',
    text: 'An HTTP API for everything, documented from the same schemas that validate it, and a web dashboard with visual routing, level meters and media controls.',
  },
];

const enthusiasts = [
  'Whole-house audio from one PC, with each room at its own volume and delay',
  'Old speakers back on the network with a Raspberry Pi and a DAC (ESP32-S3 firmware written, not yet run on a board)',
  'Listen in the browser over WebRTC or as an MP3 stream',
  'Play, pause and skip on the source computer from the API or Home Assistant',
];

const professionals = [
  'Sample rates from 44.1 to 192 kHz, 16, 24 or 32 bits, up to 8 channels with channel mapping',
  'RTP with RTCP and adaptive jitter buffers; streams found and announced with SAP',
  'Per-source, per-route and per-sink EQ and delay that add up along the path',
  'Configuration in YAML saved on every change, and a documented HTTP API',
];

const platforms: LinkCard[] = [
  {
    title: 'Windows',
    text: 'Scream sender and receiver; desktop app planned',
    href: '/docs/windows-app/',
  },
  { title: 'Linux', text: 'Server and receiver', href: '/docs/linux-receiver/' },
  { title: 'Raspberry Pi', text: 'Sender or receiver', href: '/docs/raspberry-pi/' },
  { title: 'ESP32', text: 'ESP32-S3 transceiver', href: '/docs/esp32/', notBuilt: true },
  { title: 'Docker', text: 'Audio source containers; server image planned', href: '/docs/docker/' },
  {
    title: 'Android',
    text: 'Background receiver',
    href: '/docs/android-receiver/',
    notBuilt: true,
  },
];

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Network audio routing for your home and local network</h1>
        <p className="lead">{siteConfig.description}</p>
        <p className="hero-actions">
          <Link href="/downloads/" className="button button-primary">
            Download Now
          </Link>
          <Link href="/docs/" className="button button-secondary">
            Read Documentation
          </Link>
        </p>
        <p className="hero-status">
          Tributary is young and being built in the open: the{' '}
          <Link href="/docs/">documentation</Link> marks plainly what does not work yet.
        </p>
        <ul className="hero-links">
          <li>
            <a href={siteConfig.repository.href} rel="noopener">
              Source code on GitHub
            </a>
          </li>
          <li>
            <a href={siteConfig.chat.href} rel="noopener">
              Join the Matrix chat
            </a>
          </li>
        </ul>
      </section>

      <section className="section" aria-labelledby="features">
        <h2 id="features">Features</h2>
        <Cards columns={3}>
          {features.map((feature) => (
            <Card key={feature.title} title={feature.title}>
              {feature.text}
            </Card>
          ))}
        </Cards>
      </section>

      <section className="section" aria-labelledby="what-can-it-do">
        <h2 id="what-can-it-do">What Can It Do</h2>
        <div className="two-columns">
          <div>
            <h3>For home audio enthusiasts</h3>
            <ul className="feature-list">
              {enthusiasts.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
          <div>
            <h3>For audio professionals</h3>
            <ul className="feature-list">
              {professionals.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="platforms">
        <h2 id="platforms">Supported Platforms</h2>
        <LinkCards cards={platforms} columns={3} />
      </section>
    </div>
  );
}
