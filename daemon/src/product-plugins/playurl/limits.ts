// The play-URL plugins' limits (settings `plugins.playurl` in config.yaml, defaults here).

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
}

export const PLAYURL_DEFAULTS: PlayUrlLimits = {
  directory: null,
  maxBytes: 512 * 1024 * 1024,
  maxSeconds: 0,
  connectTimeoutMs: 10_000,
  readTimeoutMs: 15_000,
  maxRedirects: 5,
  maxPlaying: 8,
};
