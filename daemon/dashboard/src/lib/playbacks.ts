// What plays on a sink from a URL (the play-URL plugins, GET /plugins/playurl/), in the words a
// card shows, and the API's refusal of a play request placed next to the URL field.
import type { PlaybackView, Problem, StatsMessage } from '../api/schema';
import { withoutPath } from './problems';

/** The playbacks on `sink` (the listing names the sink as the request did: name or config_id). */
export function playbacksOn(
  list: readonly PlaybackView[],
  sink: { readonly name: string; readonly config_id: string },
): PlaybackView[] {
  return list.filter((p) => p.sink === sink.name || p.sink === sink.config_id);
}

/** The item a card names: the one playing, else the next still to open, else the last. */
export function currentItem(playback: PlaybackView): PlaybackView['items'][number] | undefined {
  if (playback.playing !== null) return playback.items[playback.playing];
  return (
    playback.items.find((i) => i.state === 'opening' || i.state === 'waiting') ??
    playback.items[playback.items.length - 1]
  );
}

/** A URL as a person reads it: the file's name (decoded), or the host when the path is bare. */
export function urlLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const last = parsed.pathname.split('/').filter(Boolean).pop();
    if (!last) return parsed.host || url;
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  } catch {
    return url;
  }
}

/** "chime.mp3", or "chime.mp3 (2 of 3)" in a list. */
export function playbackLabel(playback: PlaybackView): string {
  const item = currentItem(playback);
  const name = item ? urlLabel(item.url) : 'nothing';
  if (playback.items.length < 2 || !item) return name;
  return `${name} (${playback.items.indexOf(item) + 1} of ${playback.items.length})`;
}

/**
 * What changes in /ws/stats when a playback starts, ends or skips a URL: the page fetches the
 * listing again when this changes (and not otherwise), so it asks nothing while nothing plays.
 */
export function playbackSignal(stats: StatsMessage | null): string {
  const p = stats?.plugins;
  return p ? `${p.playing}/${p.played}/${p.skipped}` : '';
}

/** Whether something plays from a URL now, by the stats. */
export function somethingPlays(stats: StatsMessage | null): boolean {
  return (stats?.plugins.playing ?? 0) > 0;
}

/**
 * The words next to the URL field for a refused play request: a 400's problems about the URL
 * (without their path), else the API's message as it words it (404, 413, 422, 502, 503, 504).
 */
export function playUrlRefusal(status: number, message: string, details: readonly Problem[]) {
  if (status === 400) {
    const aboutUrl = details.filter((d) => d.path === 'urls' || d.path.startsWith('urls['));
    if (aboutUrl.length > 0) return aboutUrl.map(withoutPath).join('; ');
    if (details.length > 0) return details.map((d) => d.message).join('; ');
  }
  return message;
}
