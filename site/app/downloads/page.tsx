import type { Metadata } from 'next';
import Link from 'next/link';
import { type LinkCard, LinkCards, PlannedBadge } from '@/components/link-cards';
import { Card, Cards } from '@/components/mdx/cards';
import { HighlightedCode } from '@/components/mdx/highlighted-code';
import { siteConfig } from '@/lib/site-config';

export const metadata: Metadata = {
  title: 'Downloads',
  description:
    'Run the Tributary server from source today (clone, npm install && npm start), and get the senders and receivers for Windows, Linux, Raspberry Pi, ESP32-S3 and Android.',
};

// What works today: the repository's own quick start, the same two commands as its README.
const fromSource = `git clone ${siteConfig.repository.href}.git
cd tributary
npm install && npm start`;

const requirements: [string, string][] = [
  [
    'Operating system',
    '64-bit Linux (x86-64 or ARM64), e.g. Debian 12, Ubuntu 24.04, Raspberry Pi OS',
  ],
  ['Node.js', '20.19 or newer (22 LTS recommended)'],
  ['Build tools', 'git, Rust stable (rustup) and a C compiler (Debian: build-essential)'],
  ['Memory', '2 GB RAM (1 GB runs the server; building it wants 2 GB)'],
  ['Disk', '1 GB free'],
  ['Network', 'Wired Ethernet or 5 GHz Wi-Fi; UDP and multicast allowed on the LAN'],
];

const senders: LinkCard[] = [
  {
    title: 'Windows sender',
    href: '/docs/install-windows-sender/',
    text: 'Sends what a Windows PC plays, over Scream.',
  },
  {
    title: 'Raspberry Pi sender',
    href: '/docs/install-rpi-sender/',
    text: 'A Raspberry Pi Zero as an RTP sender for line-in or USB audio.',
  },
  {
    title: 'ESP32-S3 sender',
    href: '/docs/esp32/',
    text: 'USB or S/PDIF in, flashed from your browser once the firmware is released.',
    notBuilt: true,
  },
  {
    title: 'Docker audio sources',
    href: '/docs/docker-sources/',
    text: 'Containers that play into Tributary over RTP.',
  },
];

const receivers: LinkCard[] = [
  {
    title: 'Linux and Raspberry Pi',
    href: '/docs/install-linux-receiver/',
    text: 'A background receiver with PulseAudio, ALSA or JACK output.',
  },
  {
    title: 'Windows receiver',
    href: '/docs/install-windows-receiver/',
    text: 'Plays a Tributary sink on a Windows PC.',
  },
  {
    title: 'ESP32-S3 receiver',
    href: '/docs/install-esp32/',
    text: 'A USB or S/PDIF DAC on the network.',
    notBuilt: true,
  },
  {
    title: 'Android receiver',
    href: '/docs/android-receiver/',
    text: 'A background service with a notification, installed from an APK.',
    notBuilt: true,
  },
  {
    title: 'Windows desktop app',
    href: '/docs/install-windows-app/',
    text: 'Tray app with the dashboard, media keys, a sender and a receiver.',
    notBuilt: true,
  },
];

export default function DownloadsPage() {
  return (
    <div className="page-narrow downloads" data-pagefind-body="">
      <h1>Download Tributary</h1>
      <p className="lead">
        Run the Tributary server on one always-on machine, then add senders and receivers on the
        devices that make and play your audio.
      </p>

      <section className="section" aria-labelledby="quick-install">
        <h2 id="quick-install">Quick install</h2>
        <p>
          Today the server runs from a clone of the repository. On Linux with Node.js 20.19 or
          newer, Rust and a C compiler (see the <a href="#requirements">requirements</a>):
        </p>
        <HighlightedCode code={fromSource} lang="sh" />
        <p>
          <code>npm start</code> builds the audio engine and the server, then runs it on its
          built-in default configuration: the API answers on <code>https://127.0.0.1:8443/</code>{' '}
          (port 443 when run as root) with a self-signed certificate. <code>npm test</code> in the
          same folder runs every test suite. The{' '}
          <Link href="/docs/install-tributary/">installation guide</Link> covers the certificate,
          running it as a service and updating.
        </p>
      </section>

      <section className="section" aria-labelledby="server">
        <h2 id="server">Server</h2>
        <Cards columns={3}>
          <Card title="From source" href="/docs/install-tributary/">
            <span className="badge">Works today</span> Clone the repository, then{' '}
            <code>npm install &amp;&amp; npm start</code>. Updating is <code>git pull</code> and the
            same two commands.
          </Card>
          <Card title="npm package">
            <PlannedBadge /> The server as a package on the npm registry, installed without a clone.
            Nothing is published yet.
          </Card>
          <Card title="Docker image" href="/docs/docker/">
            <PlannedBadge /> The server in a container with host networking, so multicast, mDNS and
            SAP work. No image is published yet.
          </Card>
        </Cards>
      </section>

      <section className="section" aria-labelledby="senders">
        <h2 id="senders">Senders</h2>
        <LinkCards cards={senders} columns={2} />
      </section>

      <section className="section" aria-labelledby="receivers">
        <h2 id="receivers">Receivers</h2>
        <LinkCards cards={receivers} />
      </section>

      <section className="section" aria-labelledby="requirements">
        <h2 id="requirements">System requirements</h2>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Server system requirements</caption>
            <tbody>
              {requirements.map(([what, value]) => (
                <tr key={what}>
                  <th scope="row">{what}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="section" aria-labelledby="quick-start">
        <h2 id="quick-start">Quick start</h2>
        <ol>
          <li>
            Install and start the server (above); check that{' '}
            <code>https://SERVER_IP:8443/api/health</code> answers (<code>curl -k</code> accepts the
            self-signed certificate).
          </li>
          <li>Add a sink for each receiver: its IP address and port (4010 by default).</li>
          <li>
            Add a source for each sender, by its IP address, or let discovery add them: mDNS devices
            and SAP streams can be added by themselves.
          </li>
          <li>
            Add a route from a source to a sink in the web dashboard or through the API, then adjust
            volume, equalizer and delay.
          </li>
        </ol>
        <p>
          The <Link href="/docs/">documentation</Link> covers each step, configuration and
          troubleshooting.
        </p>
      </section>

      <section className="section" aria-labelledby="links">
        <h2 id="links">Links</h2>
        <ul>
          <li>
            <a href={siteConfig.repository.href} rel="noopener">
              Source code and releases on GitHub
            </a>
          </li>
          <li>
            <Link href="/docs/">Documentation</Link>
          </li>
          <li>
            <a href={siteConfig.chat.href} rel="noopener">
              Community chat on Matrix
            </a>
          </li>
        </ul>
      </section>
    </div>
  );
}
