// What the flasher's release proxy answers in tests and benchmarks (this machine has no network):
// one firmware release in the shape of GitHub's releases API.
export const fixtureRelease = {
  tag_name: 'build-3f9c2e1a7b',
  name: 'build-3f9c2e1a7b',
  published_at: '2026-11-01T12:00:00Z',
  body: 'First release.',
  assets: [
    {
      name: 'esp32-rtp-3f9c2e1-unified.zip',
      browser_download_url:
        'https://github.com/tributary-audio/tributary/releases/download/build-3f9c2e1a7b/esp32-rtp-3f9c2e1-unified.zip',
    },
  ],
};

/** True for the release list request, however the proxy wraps the releases URL. */
export function isReleaseListRequest(url: string): boolean {
  return /\/releases(?:$|\?|&)/.test(decodeURIComponent(url));
}
