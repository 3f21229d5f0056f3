// The play-URL plugins' limits: the settings `plugins.playurl` of config.yaml (schema, ranges and
// defaults: schema/plugin-settings.ts), read at each play request, and PLAYURL_DIRECTORY (the
// environment: which folder may be read is the host's decision, not the configuration's).
import type { PlayUrlSettings } from '../../schema/plugin-settings.js';

export interface PlayUrlLimits {
  /** The only folder file: URLs may play from; null: file: URLs are refused. */
  readonly directory: string | null;
  /** Largest file (declared length) played; a larger one is refused with 413. */
  readonly maxBytes: number;
  /** Longest a playback plays, seconds (a stream is stopped there); 0: no limit. */
  readonly maxSeconds: number;
  /** Longest wait for a server's response headers, ms (504 after). */
  readonly connectTimeoutMs: number;
  /** Longest wait for the next bytes of a body, ms (the URL ends there, reported). */
  readonly readTimeoutMs: number;
  /** Redirects followed for one URL. */
  readonly maxRedirects: number;
  /** Playbacks at once (503 above); each holds a connection, a decoder thread and a ring. */
  readonly maxPlaying: number;
  /** URLs one request may list (400 above). */
  readonly maxUrls: number;
}

/** The limits `settings` (config.yaml) and `directory` (PLAYURL_DIRECTORY) set. */
export function playUrlLimits(
  settings: Readonly<PlayUrlSettings>,
  directory: string | null,
): PlayUrlLimits {
  return {
    directory,
    maxBytes: settings.max_bytes,
    maxSeconds: settings.max_seconds,
    connectTimeoutMs: settings.connect_timeout_ms,
    readTimeoutMs: settings.read_timeout_ms,
    maxRedirects: settings.max_redirects,
    maxPlaying: settings.max_playing,
    maxUrls: settings.max_urls,
  };
}

/**
 * Log lines the play-URL playbacks write per minute, all together (starts, skipped URLs,
 * failures); further lines are counted (`log_suppressed` in GET /api/stats, `plugins`) and the
 * next line after the minute says how many were left out. A host on the LAN that plays in a
 * loop cannot grow the log faster than this.
 */
export const PLAYURL_LOG_LINES_PER_MINUTE = 20;
