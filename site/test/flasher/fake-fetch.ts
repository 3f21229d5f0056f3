// A fetch stand-in for unit tests (jsdom has no fetch): answers from a table of URLs.

import type { FetchLike, FetchResponse } from '@/flasher/releases/config';

export interface FakeAnswer {
  status?: number;
  statusText?: string;
  json?: unknown;
  bytes?: Uint8Array;
  /** Reject like a network failure. */
  networkError?: string;
}

export function fakeFetch(answers: Record<string, FakeAnswer>): FetchLike & { calls: string[] } {
  const calls: string[] = [];
  const fetchImpl = async (url: string): Promise<FetchResponse> => {
    calls.push(url);
    const answer = answers[url];
    if (!answer) return response({ status: 404, statusText: 'Not Found' });
    if (answer.networkError) throw new TypeError(answer.networkError);
    return response(answer);
  };
  return Object.assign(fetchImpl, { calls });
}

function response(answer: FakeAnswer): FetchResponse {
  const status = answer.status ?? 200;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: answer.statusText ?? 'OK',
    json: async () => {
      if (answer.json === undefined) throw new SyntaxError('Unexpected end of JSON input');
      return answer.json;
    },
    arrayBuffer: async () => {
      const bytes = answer.bytes ?? new Uint8Array(0);
      return bytes.buffer.slice(
        bytes.byteOffset,
        bytes.byteOffset + bytes.byteLength,
      ) as ArrayBuffer;
    },
  };
}
