// Where the flasher finds firmware: the firmware repository's release list, fetched through a
// release proxy (GitHub's release downloads carry no CORS headers, so a static site cannot fetch
// them directly). Both are set at build time:
//   NEXT_PUBLIC_RELEASE_PROXY     proxy URL template; "{url}" is replaced by the encoded target
//                                 URL (without "{url}", the encoded target is appended)
//   NEXT_PUBLIC_FIRMWARE_RELEASES the firmware repository's releases API URL

export const DEFAULT_RELEASE_PROXY = 'https://corsproxy.io/?url={url}';
export const DEFAULT_FIRMWARE_RELEASES =
  'https://api.github.com/repos/tributary-audio/tributary/releases';

export interface ReleaseSource {
  proxy: string;
  releasesUrl: string;
}

/** The build-time settings (Next inlines NEXT_PUBLIC_* variables into the bundle). */
export function releaseSource(): ReleaseSource {
  return {
    proxy: process.env.NEXT_PUBLIC_RELEASE_PROXY || DEFAULT_RELEASE_PROXY,
    releasesUrl: process.env.NEXT_PUBLIC_FIRMWARE_RELEASES || DEFAULT_FIRMWARE_RELEASES,
  };
}

/** The proxy URL that fetches `target`, passed URL-encoded as a query parameter. */
export function proxiedUrl(proxy: string, target: string): string {
  const encoded = encodeURIComponent(target);
  return proxy.includes('{url}') ? proxy.replace('{url}', encoded) : `${proxy}${encoded}`;
}

/** The subset of fetch the flasher uses, so tests and other hosts can supply their own. */
export interface FetchResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers?: { get(name: string): string | null };
  /** The body as a stream, when the host has one (for download progress). */
  body?: ReadableStream<Uint8Array> | null;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<FetchResponse>;
