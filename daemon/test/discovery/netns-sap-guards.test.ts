// SAP from hostile hosts, each scenario in a network namespace of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

test('a deletion from another host, or naming another origin, is refused; the sender’s own one works', {
  skip: namespaceUnavailable(['ffmpeg']) ?? false,
}, async (t) => {
  const { result } = await inNamespace<{
    source: string;
    streams_after_foreign: string[];
    sources_after_foreign: string[];
    deletions_read: number;
    deletions_refused: number | null;
    refusals_logged: number;
    own_deletion_ms: number;
    foreign_wait_ms: number;
  }>(t, 'sap-foreign-delete');
  t.diagnostic(JSON.stringify(result));
  assert.equal(result.streams_after_foreign.length, 1, 'the stream is still listed');
  assert.deepEqual(result.sources_after_foreign, [result.source], 'its source is still there');
  assert.equal(result.deletions_refused, 2);
  assert.ok(result.refusals_logged >= 1, 'refusals are logged');
  // The source was watched after the refusals for 3x as long as the accepted deletion took to
  // remove it (ffmpeg's SIGTERM to the source gone, an upper bound of the same path): a refused
  // deletion that removed the source would have been seen.
  assert.ok(
    result.own_deletion_ms * 3 <= result.foreign_wait_ms,
    `own deletion took ${result.own_deletion_ms} ms; the foreign ones were watched ${result.foreign_wait_ms} ms`,
  );
});

interface Flood {
  flood: { sent: number; seconds: number };
  received: number;
  streams_kept_at_end_of_flood: number;
  streams_kept: number;
  rate_limited: number | null;
  over_capacity: number | null;
  auto_add: { per_minute: number; added_last_minute: number; waiting: number } | null;
  rss_mb: { idle: number; peak: number; after: number };
  stats_bytes: { idle: number; max: number; after: number };
  auto_added_sources_in_config_max: number;
  drop_log_lines: number;
}

test('a flood of announcements with distinct origins from 8 addresses: every cap holds', {
  skip: namespaceUnavailable() ?? false,
}, async (t) => {
  // 8,000 announcements at 2,000/s: more per sender than the rate allows, more streams than
  // max_streams (256), more playable streams than auto-add may add in a minute (30).
  const { result } = await inNamespace<Flood>(t, 'sap-flood', { timeoutMs: 180_000 });
  t.diagnostic(JSON.stringify(result));
  assert.ok(result.received >= result.flood.sent * 0.9, `${result.received} read`);
  assert.ok((result.rate_limited ?? 0) > 0, 'senders over the rate were limited');
  assert.ok((result.over_capacity ?? 0) > 0, 'streams beyond max_streams were dropped');
  assert.ok(result.streams_kept_at_end_of_flood <= 256, `${result.streams_kept_at_end_of_flood}`);
  assert.ok(result.streams_kept <= 256);
  assert.ok(result.auto_add && result.auto_add.waiting > 0, 'more streams than auto-add may add');
  assert.ok(result.auto_added_sources_in_config_max <= 30, 'config.yaml gained at most 30');
  assert.ok(result.auto_add.added_last_minute <= 30);
  assert.ok(result.stats_bytes.max < 4096, `/api/stats reached ${result.stats_bytes.max} bytes`);
  assert.ok(result.stats_bytes.max - result.stats_bytes.idle < 1024, 'and did not grow with it');
  assert.ok(result.rss_mb.peak - result.rss_mb.idle < 100, JSON.stringify(result.rss_mb));
  // One line at the first drop, then at most one every 10 s.
  assert.ok(result.drop_log_lines <= 2 + Math.ceil((result.flood.seconds + 8) / 10));
});
