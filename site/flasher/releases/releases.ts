// The firmware release list: GitHub release objects turned into the rows the flasher shows,
// newest first, each with its short version and a "Changes" line.

import { type FetchLike, proxiedUrl, type ReleaseSource } from './config';

export interface ReleaseAsset {
  name: string;
  browser_download_url: string;
}

/** The fields of a GitHub release the flasher reads. */
export interface GitHubRelease {
  tag_name: string;
  published_at: string | null;
  body?: string | null;
  draft?: boolean;
  assets: ReleaseAsset[];
}

export interface FirmwareRelease {
  tag: string;
  /** tag_name without a "build-" prefix, first 7 characters. */
  version: string;
  publishedAt: Date | null;
  changes: string;
  assets: ReleaseAsset[];
}

export class ReleaseListError extends Error {
  override name = 'ReleaseListError';
}

export function versionFromTag(tag: string): string {
  return tag.replace(/^build-/, '').slice(0, 7);
}

/** "Changes from X to Y" from a compare link (…/compare/X...Y) in the release notes. */
export function changesFromBody(body: string | null | undefined): string {
  const match = /\/compare\/([^\s/)\]]+?)\.{2,3}([^\s/)\]]+)/.exec(body ?? '');
  if (!match) return 'Initial release';
  return `Changes from ${versionFromTag(match[1]!)} to ${versionFromTag(match[2]!)}`;
}

function time(date: Date | null): number {
  return date ? date.getTime() : Number.NEGATIVE_INFINITY;
}

function isRelease(value: unknown): value is GitHubRelease {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.tag_name === 'string' && Array.isArray(r.assets);
}

/** Newest first by published_at; releases without a date go last. Drafts are left out. */
export function toFirmwareReleases(list: unknown): FirmwareRelease[] {
  if (!Array.isArray(list))
    throw new ReleaseListError('Failed to fetch releases: the answer is not a release list');
  return list
    .filter(isRelease)
    .filter((r) => !r.draft)
    .map((r) => {
      const date = r.published_at ? new Date(r.published_at) : null;
      return {
        tag: r.tag_name,
        version: versionFromTag(r.tag_name),
        publishedAt: date && !Number.isNaN(date.getTime()) ? date : null,
        changes: changesFromBody(r.body),
        assets: r.assets.filter(
          (a): a is ReleaseAsset =>
            typeof a?.name === 'string' && typeof a?.browser_download_url === 'string',
        ),
      };
    })
    .sort((a, b) => time(b.publishedAt) - time(a.publishedAt));
}

export async function fetchReleases(
  source: ReleaseSource,
  fetchImpl: FetchLike,
  signal?: AbortSignal,
): Promise<FirmwareRelease[]> {
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await fetchImpl(proxiedUrl(source.proxy, source.releasesUrl), { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReleaseListError(`Failed to fetch releases: ${reason}`);
  }
  if (!response.ok)
    throw new ReleaseListError(
      `Failed to fetch releases: ${response.status} ${response.statusText}`,
    );
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ReleaseListError('Failed to fetch releases: the answer is not JSON');
  }
  return toFirmwareReleases(json);
}
