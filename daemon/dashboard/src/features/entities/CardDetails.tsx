// The telemetry behind a card's "Details" disclosure: the volume in dB with the saved value, and
// the counters (packets, loss, jitter, buffer, clock) a listener does not need at a glance.
import type { ReactNode } from 'react';
import { volumeDetail } from '../../lib/volume';

export function CardDetails({ volume, children }: { volume: number; children?: ReactNode }) {
  return (
    <details className="card-details">
      <summary>Details</summary>
      <p>Volume {volumeDetail(volume)}</p>
      {children}
    </details>
  );
}
