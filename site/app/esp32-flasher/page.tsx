import type { Metadata } from 'next';
import Link from 'next/link';
import { FlasherShell } from '@/components/flasher/flasher-shell';

export const metadata: Metadata = {
  title: 'ESP32-S3 firmware flasher',
  description:
    'Flash the Tributary ESP32-S3 audio transceiver firmware from desktop Chrome or Edge over USB, without installing anything.',
};

export default function FlasherPage() {
  return (
    <div className="page-narrow flasher-page">
      <h1>ESP32-S3 firmware flasher</h1>
      <p className="lead">
        Connect an ESP32-S3 board over USB, pick a firmware release and flash it from this page. It
        works in desktop Chrome and Edge and takes about one to two minutes. See the{' '}
        <Link href="/docs/install-esp32/">ESP32-S3 installation guide</Link> for wiring, the
        first-boot wizard and troubleshooting.
      </p>
      <FlasherShell />
    </div>
  );
}
