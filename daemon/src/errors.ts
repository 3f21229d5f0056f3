// Every error the daemon answers with, one code each (TRIBUTARY_*). Thrown anywhere (the config
// model, the store, route handlers); the app's error handler turns them into the Error schema.
import createError from '@fastify/error';
import type { Problem } from './schema/problem.js';

/** An error that carries the problems found (invalid request or resulting configuration). */
export interface ProblemError extends Error {
  details?: Problem[];
}

function withDetails<E extends Error>(error: E, details: Problem[]): E & ProblemError {
  return Object.assign(error, { details });
}

const InvalidRequestError = createError<'TRIBUTARY_INVALID_REQUEST', 400, [string]>(
  'TRIBUTARY_INVALID_REQUEST',
  '%s',
  400,
);
const InvalidConfigError = createError<'TRIBUTARY_INVALID_CONFIG', 400, [string]>(
  'TRIBUTARY_INVALID_CONFIG',
  '%s',
  400,
);

/** 400: the request itself (body, path parameter) breaks the schema. */
export function invalidRequest(problems: Problem[]) {
  return withDetails(new InvalidRequestError(summarise(problems)), problems);
}

/** 400: the request is well formed but the configuration it would produce is not. */
export function invalidConfig(problems: Problem[]) {
  return withDetails(new InvalidConfigError(summarise(problems)), problems);
}

function summarise(problems: Problem[]): string {
  const [first, ...rest] = problems;
  if (!first) return 'invalid input';
  return rest.length === 0
    ? first.message
    : `${first.message} (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
}

/** 404: no entry of that kind has that name. Args: kind ("sink"), name. */
export const NotFoundError = createError<'TRIBUTARY_NOT_FOUND', 404, [string, string]>(
  'TRIBUTARY_NOT_FOUND',
  "No %s named '%s'",
  404,
);

/** 404: no route matches the method and URL. Args: method, url. */
export const RouteNotFoundError = createError<'TRIBUTARY_NOT_FOUND', 404, [string, string]>(
  'TRIBUTARY_NOT_FOUND',
  'No route %s %s',
  404,
);

/** 409: the name is taken. Args: kind, name. */
export const DuplicateNameError = createError<'TRIBUTARY_DUPLICATE_NAME', 409, [string, string]>(
  'TRIBUTARY_DUPLICATE_NAME',
  "A %s named '%s' already exists",
  409,
);

/** 409: the config_id is taken. Args: config_id, what holds it. */
export const DuplicateIdError = createError<'TRIBUTARY_DUPLICATE_ID', 409, [string, string]>(
  'TRIBUTARY_DUPLICATE_ID',
  'config_id %s is already used by %s',
  409,
);

/** 409: the entry cannot be deleted while others refer to it. Args: kind, name, referrers. */
export const InUseError = createError<'TRIBUTARY_IN_USE', 409, [string, string, string]>(
  'TRIBUTARY_IN_USE',
  "Cannot delete %s '%s': it is used by %s",
  409,
);

/** 409: a media command needs a source with vnc_ip. Args: source name. */
export const NoMediaHostError = createError<'TRIBUTARY_NO_MEDIA_HOST', 409, [string]>(
  'TRIBUTARY_NO_MEDIA_HOST',
  "Source '%s' has no vnc_ip to send media commands to",
  409,
);

/** 502: the media command could not be sent. Args: destination, reason. */
export const MediaCommandError = createError<
  'TRIBUTARY_MEDIA_COMMAND_FAILED',
  502,
  [string, string]
>('TRIBUTARY_MEDIA_COMMAND_FAILED', 'Could not send the media command to %s: %s', 502);

/** 409: a discovered stream or device cannot be added. Args: what, why. */
export const NotAddableError = createError<'TRIBUTARY_NOT_ADDABLE', 409, [string, string]>(
  'TRIBUTARY_NOT_ADDABLE',
  'Cannot add %s: %s',
  409,
);

/** 409: a plugin has as many permanent sources as it may. Args: plugin, count, cap. */
export const PluginSourceLimitError = createError<
  'TRIBUTARY_PLUGIN_SOURCE_LIMIT',
  409,
  [string, string, string]
>(
  'TRIBUTARY_PLUGIN_SOURCE_LIMIT',
  'Plugin %s has %s permanent sources, the most a plugin may have (%s): remove one first',
  409,
);

/** 401: API_TOKEN is set and the request did not carry it. */
export const UnauthorizedError = createError<'TRIBUTARY_UNAUTHORIZED', 401, []>(
  'TRIBUTARY_UNAUTHORIZED',
  'This daemon needs an API token: send "Authorization: Bearer <token>" or the cookie tributary_token',
  401,
);

/** 503: the change could not be saved, so it was not made. Args: file, reason. */
export const SaveFailedError = createError<'TRIBUTARY_SAVE_FAILED', 503, [string, string]>(
  'TRIBUTARY_SAVE_FAILED',
  'The change was not made: saving %s failed (%s)',
  503,
);

/** 400: the URL is not valid percent-encoding. Args: the URL (cut). */
export const BadUrlError = createError<'TRIBUTARY_BAD_URL', 400, [string]>(
  'TRIBUTARY_BAD_URL',
  "The URL '%s' is not valid percent-encoding (a '%%' must start two hex digits)",
  400,
);

/**
 * 400: the URL's percent-escapes are well formed but their bytes are not UTF-8 (a lone
 * surrogate's bytes, %ED%BF%BF, among them: no URL can name such a name). Args: the URL (cut).
 */
export const BadUrlUtf8Error = createError<'TRIBUTARY_BAD_URL', 400, [string]>(
  'TRIBUTARY_BAD_URL',
  "The URL '%s' is not valid percent-encoded UTF-8 (an entry whose name has no UTF-8 form, such as a lone surrogate, is reached by its config_id)",
  400,
);

/** 414: a path segment is longer than any name could be. Args: the limit. */
export const UrlTooLongError = createError<'TRIBUTARY_URL_TOO_LONG', 414, [number]>(
  'TRIBUTARY_URL_TOO_LONG',
  'A path segment of the URL is longer than %d characters; names are at most 64 characters',
  414,
);

/** 405: the URL exists, not with this method. Args: method, URL, allowed methods. */
export const MethodNotAllowedError = createError<
  'TRIBUTARY_METHOD_NOT_ALLOWED',
  405,
  [string, string, string]
>('TRIBUTARY_METHOD_NOT_ALLOWED', '%s is not allowed on %s; use %s', 405);

/** 426: a WebSocket URL requested without the upgrade. Args: URL. */
export const UpgradeRequiredError = createError<'TRIBUTARY_UPGRADE_REQUIRED', 426, [string]>(
  'TRIBUTARY_UPGRADE_REQUIRED',
  '%s is a WebSocket: connect with an Upgrade: websocket request',
  426,
);

/** 403: a change through GET from another site's page. Args: what gave it away, the PUT. */
export const CrossSiteError = createError<'TRIBUTARY_CROSS_SITE', 403, [string, string]>(
  'TRIBUTARY_CROSS_SITE',
  'A change through GET is refused from another site (%s); use %s',
  403,
);

/** 500: anything unexpected; details go to the log, not to the client. */
export const InternalError = createError<'TRIBUTARY_INTERNAL', 500, []>(
  'TRIBUTARY_INTERNAL',
  'Internal error; see the daemon log',
  500,
);

/** Every status code an API route may answer with besides success, for the response schemas. */
export const ERROR_STATUS_CODES = [
  400, 401, 403, 404, 405, 409, 412, 413, 421, 422, 426, 500, 502, 503, 504,
] as const;

/** 404: no real sink has that address (groups have none). Args: ip. */
export const NoStreamError = createError<'TRIBUTARY_NOT_FOUND', 404, [string]>(
  'TRIBUTARY_NOT_FOUND',
  "No sink with ip '%s' to stream (streams exist for real, enabled sinks with an ip)",
  404,
);

/** 503: the stream cannot take a listener (full, or the engine is off). Args: why. */
export const StreamUnavailableError = createError<'TRIBUTARY_STREAM_UNAVAILABLE', 503, [string]>(
  'TRIBUTARY_STREAM_UNAVAILABLE',
  '%s',
  503,
);

/** 403: a WebSocket opened by another site's page. Args: the evidence. */
export const CrossSiteSocketError = createError<'TRIBUTARY_CROSS_SITE', 403, [string]>(
  'TRIBUTARY_CROSS_SITE',
  "WebSockets are only opened from the dashboard's own pages and from programs, not another site's (%s)",
  403,
);

/** 404: no real, enabled sink with WebRTC listening by that id or name. Args: id, why. */
export const NoWhepSinkError = createError<'TRIBUTARY_NOT_FOUND', 404, [string, string]>(
  'TRIBUTARY_NOT_FOUND',
  "No sink '%s' to listen to over WebRTC (%s)",
  404,
);

/** 404: no WebRTC session by that id (never made, closed, or timed out). Args: id. */
export const NoWhepSessionError = createError<'TRIBUTARY_NOT_FOUND', 404, [string]>(
  'TRIBUTARY_NOT_FOUND',
  "No WebRTC session '%s' (closed, timed out, or never made)",
  404,
);

/** 400: an SDP offer or ICE fragment the engine cannot use. Args: the engine's reason. */
export const BadOfferError = createError<'TRIBUTARY_BAD_OFFER', 400, [string]>(
  'TRIBUTARY_BAD_OFFER',
  '%s',
  400,
);

/**
 * 412: a WHEP PATCH whose If-Match names another ICE session than the current one (sent before
 * an ICE restart the client does not know of yet). Args: the If-Match given.
 */
export const StaleIceSessionError = createError<'TRIBUTARY_STALE_ICE_SESSION', 412, [string]>(
  'TRIBUTARY_STALE_ICE_SESSION',
  "If-Match %s is not the session's ICE session (its ETag changed with an ICE restart); " +
    'send the latest ETag, or * to restart ICE',
  412,
);

/** 415: a body of another type than the route reads. Args: type given, type wanted. */
export const UnsupportedMediaTypeError = createError<
  'TRIBUTARY_UNSUPPORTED_MEDIA_TYPE',
  415,
  [string, string]
>('TRIBUTARY_UNSUPPORTED_MEDIA_TYPE', "Content-Type '%s' is not read here; send %s", 415);

/**
 * 403: a change (any method but GET, HEAD and OPTIONS) sent by another site's page. Args: the
 * method and path, the evidence (the Origin or Sec-Fetch-Site header).
 */
export const CrossSiteChangeError = createError<'TRIBUTARY_CROSS_SITE', 403, [string, string]>(
  'TRIBUTARY_CROSS_SITE',
  "%s is refused from another site's page (%s): changes come from the dashboard's own pages " +
    'or from programs, which send no Origin (or Sec-Fetch-Site: none)',
  403,
);

const UnknownHostError = createError<'TRIBUTARY_UNKNOWN_HOST', 421, [string, string]>(
  'TRIBUTARY_UNKNOWN_HOST',
  "This server does not answer to the name '%s' (the request's Host header). If it is a name " +
    'of this server, add %s to the setting ALLOWED_HOSTS (comma-separated) and restart it',
  421,
);

/** 421 Misdirected Request: a Host header naming none of this server's names. */
export function unknownHost(header: string, host: string) {
  return withDetails(new UnknownHostError(header, host), [
    {
      path: 'headers.host',
      keyword: 'host',
      rule: 'must name this server: one of its addresses, localhost, its host name, its .local name, or a name in ALLOWED_HOSTS',
      value: header,
      message: `Host '${header}' is not a name of this server (add ${host} to ALLOWED_HOSTS)`,
    },
  ]);
}

/** 404: the play-URL file does not exist (under the play-URL directory). Args: why. */
export const PlayUrlMissingError = createError<'TRIBUTARY_NOT_FOUND', 404, [string]>(
  'TRIBUTARY_NOT_FOUND',
  '%s',
  404,
);

/** 413: the audio a play request names is larger than plugins.playurl.max_bytes. Args: why. */
export const PlayUrlTooLargeError = createError<'TRIBUTARY_TOO_LARGE', 413, [string]>(
  'TRIBUTARY_TOO_LARGE',
  '%s',
  413,
);

/** 422: the bytes a play request names are not audio Tributary decodes. Args: the decoder's reason. */
export const UndecodableError = createError<'TRIBUTARY_UNDECODABLE', 422, [string]>(
  'TRIBUTARY_UNDECODABLE',
  '%s',
  422,
);

/** 502: the server a play request names could not be reached or refused. Args: why. */
export const UpstreamError = createError<'TRIBUTARY_UPSTREAM', 502, [string]>(
  'TRIBUTARY_UPSTREAM',
  '%s',
  502,
);

/** 503: nothing more can play (plugins.playurl.max_playing), or the engine is off. Args: why. */
export const PlayUnavailableError = createError<'TRIBUTARY_PLAY_UNAVAILABLE', 503, [string]>(
  'TRIBUTARY_PLAY_UNAVAILABLE',
  '%s',
  503,
);

/** 504: the server a play request names did not answer in time. Args: why. */
export const UpstreamTimeoutError = createError<'TRIBUTARY_UPSTREAM_TIMEOUT', 504, [string]>(
  'TRIBUTARY_UPSTREAM_TIMEOUT',
  '%s',
  504,
);
