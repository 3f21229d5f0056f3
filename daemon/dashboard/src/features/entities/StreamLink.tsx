// The Stream button of a real, enabled sink with an address: its MP3 stream (GET /stream/{ip}/)
// in a new tab, where the browser's own player plays it. Shown only when the daemon reports
// MP3 streaming (its stats carry a `streams` list), as the spec asks.
import { useLive } from '../../api/hooks';
import type { Sink } from '../../api/schema';
import { STREAM_PATH } from '../../app/paths';

export function StreamLink({ sink }: { sink: Sink }) {
  const streaming = useLive((s) => Array.isArray(s.stats?.streams));
  if (!streaming || sink.is_group || !sink.ip || sink.enabled === false) return null;
  return (
    <a
      className="button button-small button-secondary stream-link"
      href={`${STREAM_PATH}${encodeURIComponent(sink.ip)}/`}
      target="_blank"
      rel="noopener"
      aria-label={`Stream: ${sink.name} as MP3 (new tab)`}
    >
      Stream
    </a>
  );
}
