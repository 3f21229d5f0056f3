import Link from 'next/link';
import { siteConfig } from '@/lib/site-config';

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <h1>{siteConfig.tagline}</h1>
        <p className="lead">{siteConfig.description}</p>
        <p className="hero-actions">
          <Link href="/downloads/" className="button button-primary">
            Download Now
          </Link>
          <Link href="/docs/" className="button button-secondary">
            Read Documentation
          </Link>
        </p>
      </section>
    </div>
  );
}
