// Why a URL did not play: the status the API answers with, the field at fault and the reason
// (also what the listing of a playback shows for a URL it skipped).
import {
  invalidRequest,
  PlayUnavailableError,
  PlayUrlMissingError,
  PlayUrlTooLargeError,
  UndecodableError,
  UpstreamError,
  UpstreamTimeoutError,
} from '../../errors.js';
import { makeProblem } from '../../schema/validate.js';

/** The statuses a URL that does not play is answered with (see `httpError`). */
export type PlayUrlStatus = 400 | 404 | 409 | 413 | 422 | 502 | 503 | 504;

export class PlayUrlError extends Error {
  constructor(
    readonly status: PlayUrlStatus,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The error of errors.ts the API answers with for `err`. */
export function httpError(err: PlayUrlError, field = err.field): Error {
  switch (err.status) {
    case 400:
    case 409:
      return invalidRequest([makeProblem(field, 'playurl', err.message)]);
    case 404:
      return new PlayUrlMissingError(`${field}: ${err.message}`);
    case 413:
      return new PlayUrlTooLargeError(`${field}: ${err.message}`);
    case 422:
      return new UndecodableError(`${field}: ${err.message}`);
    case 502:
      return new UpstreamError(`${field}: ${err.message}`);
    case 503:
      return new PlayUnavailableError(err.message);
    case 504:
      return new UpstreamTimeoutError(`${field}: ${err.message}`);
  }
}
