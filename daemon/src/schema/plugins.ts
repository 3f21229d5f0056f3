// Product plugins at the HTTP boundary: the play-URL plugins' requests and answers, and what
// GET /api/stats says of every plugin (src/product-plugins/).
import { type Static, Type } from '@sinclair/typebox';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'What to play: an http or https URL (a file or an endless stream such as internet radio), ' +
    'or a file: URL under PLAYURL_DIRECTORY.',
  examples: ['http://192.168.1.20:8123/api/tts_proxy/chime.mp3'],
});

const SinkKey = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'The sink or sink group to play on: its name or config_id.',
  examples: ['Kitchen'],
});

export const PlayUrlQuery = Type.Object(
  { url: Url, sink: SinkKey },
  { additionalProperties: false },
);
export type PlayUrlQuery = Static<typeof PlayUrlQuery>;

export const PlayUrlsBody = Type.Object(
  {
    urls: Type.Array(Url, {
      minItems: 1,
      maxItems: 32,
      description: 'URLs played one after the other, without gaps; one that fails is skipped.',
    }),
    sink: SinkKey,
  },
  { additionalProperties: false },
);
export type PlayUrlsBody = Static<typeof PlayUrlsBody>;

export const PlaybackItem = Type.Object(
  {
    url: Type.String(),
    state: Type.Union(
      ['waiting', 'opening', 'playing', 'played', 'skipped', 'stopped'].map((s) => Type.Literal(s)),
      { description: 'Where this URL is: played, skipped (see error) or stopped before its end.' },
    ),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it was skipped, or why it ended early; null when nothing went wrong.',
    }),
    status: Type.Optional(
      Type.Integer({ description: 'The status a request for this URL alone would have had.' }),
    ),
    codec: Type.Union([Type.String(), Type.Null()], {
      description: 'The codec the decoder found (mp3, aac, flac, vorbis, opus, pcm_s16le, ...).',
    }),
  },
  { additionalProperties: false },
);
export type PlaybackItem = Static<typeof PlaybackItem>;

export const PlaybackView = Type.Object(
  {
    id: Type.String({ description: 'The playback id (DELETE /plugins/playurl/{id} stops it).' }),
    sink: Type.String({ description: 'The sink or sink group, as the request named it.' }),
    started_at: Type.String({ format: 'date-time' }),
    playing: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'The index of the URL playing now; null between URLs or once over.',
    }),
    items: Type.Array(PlaybackItem),
  },
  { additionalProperties: false, $id: 'Playback' },
);
export type PlaybackView = Static<typeof PlaybackView>;

export const PluginState = Type.Object(
  {
    name: Type.String(),
    builtin: Type.Boolean({ description: 'Shipped with Tributary (else loaded from the folder).' }),
    state: Type.Union([Type.Literal('running'), Type.Literal('failed'), Type.Literal('stopped')], {
      description: 'failed: it threw while loading or starting and is disabled (see error).',
    }),
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type PluginState = Static<typeof PluginState>;

export const PluginStats = Type.Object(
  {
    plugins: Type.Array(PluginState),
    playing: Type.Integer({ minimum: 0, description: 'Play-URL playbacks now.' }),
    played: Type.Integer({ minimum: 0, description: 'Play-URL playbacks started since start.' }),
    skipped: Type.Integer({
      minimum: 0,
      description: 'URLs skipped (unreachable, undecodable, too large) since start.',
    }),
    log_suppressed: Type.Integer({
      minimum: 0,
      description:
        'Play-URL log lines left out since start: past PLAYURL_LOG_LINES_PER_MINUTE (20) a ' +
        'minute, lines are counted here instead of written.',
    }),
  },
  { additionalProperties: false, description: 'Product plugins (src/product-plugins/).' },
);
export type PluginStats = Static<typeof PluginStats>;
