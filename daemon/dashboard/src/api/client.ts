// The API client: every change the dashboard makes goes through the daemon's documented HTTP API.
// Errors keep the daemon's own words: its message and each `details[]` entry with the field it names.
import { type Collection, segment } from './addresses';
import type {
  EqResponse,
  Equalizer,
  EqualizerPreset,
  ErrorResponse,
  Favorites,
  NetworkInfo,
  PlaybackView,
  PlayUrlsBody,
  Problem,
  Route,
  RouteInput,
  RoutePatch,
  Sink,
  SinkInput,
  SinkPatch,
  Source,
  SourceInput,
  SourcePatch,
} from './schema';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Problem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What a failed request says, for a toast or a form: the API's message, or why it never came. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `The server could not be reached (${error.message}).`;
  return String(error);
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data ?? {}) as Partial<ErrorResponse>;
    throw new ApiError(
      response.status,
      error.code ?? `HTTP_${response.status}`,
      error.message ?? `${method} ${path} failed: HTTP ${response.status}`,
      error.details ?? [],
    );
  }
  return data as T;
}

const at = (collection: Collection, name: string, rest = '') =>
  `/${collection}/${segment(collection, name)}${rest}`;

export type Kind = 'source' | 'sink' | 'route';
export const COLLECTION = { source: 'sources', sink: 'sinks', route: 'routes' } as const;

export interface EntityTypes {
  source: { entity: Source; input: SourceInput; patch: SourcePatch };
  sink: { entity: Sink; input: SinkInput; patch: SinkPatch };
  route: { entity: Route; input: RouteInput; patch: RoutePatch };
}

export const api = {
  add<K extends Kind>(kind: K, input: EntityTypes[K]['input']): Promise<EntityTypes[K]['entity']> {
    return call('POST', `/${COLLECTION[kind]}`, input);
  },
  update<K extends Kind>(
    kind: K,
    name: string,
    patch: EntityTypes[K]['patch'],
  ): Promise<EntityTypes[K]['entity']> {
    return call('PUT', at(COLLECTION[kind], name), patch);
  },
  remove(kind: Kind, name: string): Promise<true> {
    return call('DELETE', at(COLLECTION[kind], name));
  },
  setEqualizer(kind: Kind, name: string, bands: Equalizer): Promise<true> {
    return call('POST', at(COLLECTION[kind], name, '/equalizer'), bands);
  },
  media(source: string, command: 'play' | 'nexttrack' | 'prevtrack'): Promise<true> {
    return call('GET', at('sources', source, `/${command}`));
  },
  addPreset(preset: EqualizerPreset): Promise<EqualizerPreset> {
    return call('POST', '/equalizers', preset);
  },
  removePreset(name: string): Promise<true> {
    return call('DELETE', at('equalizers', name));
  },
  setFavorites(favorites: string[]): Promise<Favorites> {
    return call('PUT', '/api/favorites', { favorites });
  },
  /** The equalizer's response in dB, from the engine's own filter design. */
  eqResponse(bands: Equalizer, sampleRate: number): Promise<EqResponse> {
    return call('POST', '/api/equalizer/response', { bands, sample_rate: sampleRate });
  },
  /** Plays the URLs in order on a sink or sink group (the playurlmultiple plugin). */
  playUrls(body: PlayUrlsBody): Promise<{ id: string; playback: PlaybackView }> {
    return call('POST', '/plugins/playurlmultiple/play', body);
  },
  /** What plays from URLs now. */
  playbacks(): Promise<PlaybackView[]> {
    return call('GET', '/plugins/playurl/');
  },
  stopPlayback(id: string): Promise<PlaybackView> {
    return call('DELETE', `/plugins/playurl/${encodeURIComponent(id)}`);
  },
  network(): Promise<NetworkInfo> {
    return call('GET', '/api/network');
  },
  /** 200 when the API answers us, 401 when it wants the token. */
  async health(): Promise<number> {
    const response = await fetch('/api/health', { credentials: 'same-origin' });
    return response.status;
  },
};
