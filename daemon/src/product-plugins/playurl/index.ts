// The built-in play-URL plugins: `playurl` (GET /plugins/playurl/play?url=&sink=, the listing
// GET /plugins/playurl/ and DELETE /plugins/playurl/{id}) and `playurlmultiple` (POST
// /plugins/playurlmultiple/play {urls, sink}). Both play through one set of playbacks.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { PlayUrlMissingError } from '../../errors.js';
import {
  PlaybackView,
  type PlaybackView as PlaybackViewType,
  PlayUrlQuery,
  PlayUrlsBody,
} from '../../schema/plugins.js';
import { ErrorResponse } from '../../schema/problem.js';
import type { TributaryPlugin } from '../types.js';
import { httpError, PlayUrlError } from './errors.js';
import type { Playbacks } from './playbacks.js';

const tags = ['Plugins'];
const error = (description: string) => Type.Ref(ErrorResponse, { description });

/** The answers of a play request besides 200 (the same for both plugins). */
const playErrors = {
  400: error(
    'A bad URL (not absolute, a scheme other than http, https or file, a file outside PLAYURL_DIRECTORY, more URLs than plugins.playurl.max_urls) or request; the body names the field.',
  ),
  401: error('API_TOKEN is set and the request did not carry it.'),
  403: error(
    "A play request through GET from another site's page: use POST /plugins/playurlmultiple/play.",
  ),
  404: error('No sink or sink group by that name or config_id, or no such file.'),
  413: error('The file is larger than plugins.playurl.max_bytes (its declared length).'),
  422: error("Not audio Tributary decodes (the decoder's reason), e.g. an HTML page."),
  500: error('Unexpected failure; details are in the daemon log.'),
  502: error(
    'The server could not be reached, refused, answered an error or redirected too often.',
  ),
  503: error('plugins.playurl.max_playing playbacks already play, or the audio engine is off.'),
  504: error('The server did not answer within the connect timeout, or sent no audio in time.'),
};

const Started = Type.Object(
  { id: Type.String({ description: 'The playback id.' }), playback: Type.Ref(PlaybackView) },
  { additionalProperties: false },
);

async function play(
  playbacks: Playbacks,
  urls: readonly string[],
  sink: string,
  field: string,
): Promise<{ id: string; playback: PlaybackViewType }> {
  try {
    const playback = await playbacks.play(urls, sink, field);
    return { id: playback.id, playback: playback.view() };
  } catch (err) {
    if (err instanceof PlayUrlError) throw httpError(err);
    throw err;
  }
}

/** `playurl` and `playurlmultiple`, sharing `playbacks`. */
export function playUrlPlugins(playbacks: Playbacks): TributaryPlugin[] {
  const playurlRoutes: FastifyPluginAsync = async (fastify) => {
    fastify.get<{ Querystring: PlayUrlQuery }>(
      '/play',
      {
        config: { changes: 'POST /plugins/playurlmultiple/play' as const },
        schema: {
          tags,
          operationId: 'playUrl',
          summary: 'Play a URL on a sink',
          description:
            'Plays the URL on the sink or sink group as a temporary source mixed with what ' +
            'plays there (MP3, AAC/M4A, FLAC, WAV, Ogg Vorbis, Ogg Opus; a stream plays until ' +
            'stopped). Answers once the audio plays, with the playback id.',
          querystring: PlayUrlQuery,
          response: { 200: Started, ...playErrors },
        },
      },
      (request) => play(playbacks, [request.query.url], request.query.sink, 'url'),
    );
    fastify.get(
      '/',
      {
        schema: {
          tags,
          operationId: 'listPlaybacks',
          summary: 'What plays from URLs',
          description: 'Every playback not over yet (of playurl and playurlmultiple).',
          response: {
            200: Type.Array(Type.Ref(PlaybackView)),
            401: playErrors[401],
            500: playErrors[500],
          },
        },
      },
      () => playbacks.list(),
    );
    fastify.delete<{ Params: { id: string } }>(
      '/:id',
      {
        schema: {
          tags,
          operationId: 'stopPlayback',
          summary: 'Stop a playback',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: {
            200: Type.Ref(PlaybackView),
            401: playErrors[401],
            403: error("A change from another site's page."),
            404: error('No playback with that id (never started, or over).'),
            500: playErrors[500],
          },
        },
      },
      (request) => {
        const view = playbacks.stop(request.params.id);
        if (!view) throw new PlayUrlMissingError(`No playback with id '${request.params.id}'`);
        return view;
      },
    );
  };

  const multipleRoutes: FastifyPluginAsync = async (fastify) => {
    fastify.post<{ Body: PlayUrlsBody }>(
      '/play',
      {
        schema: {
          tags,
          operationId: 'playUrls',
          summary: 'Play URLs in order on a sink',
          description:
            'Plays the URLs one after the other on the sink or sink group, without gaps; a URL ' +
            'that fails is skipped and reported in the playback. Answers once the first ' +
            'playable URL plays; when none can, with the error of the last.',
          body: PlayUrlsBody,
          response: { 200: Started, ...playErrors },
        },
      },
      (request) => play(playbacks, request.body.urls, request.body.sink, 'urls'),
    );
  };

  return [
    {
      name: 'playurl',
      start: (context) => playbacks.attach(context),
      stop: () => playbacks.stopAll(),
      routes: playurlRoutes,
    },
    {
      name: 'playurlmultiple',
      start: (context) => playbacks.attach(context),
      routes: multipleRoutes,
    },
  ];
}
