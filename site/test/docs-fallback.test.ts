import { describe, expect, test } from '@jest/globals';
import { docsFallbackTarget, docsPathOf } from '@/lib/docs-fallback';
import { exportedSegments } from '@/lib/docs-nav';

const segments = exportedSegments();

describe('docs URLs without an exported file', () => {
  test('only paths under <base>/docs/ are docs paths', () => {
    expect(docsPathOf('/docs/guides/api/', '')).toBe('/docs/guides/api/');
    expect(docsPathOf('/tributary/docs/x/', '/tributary')).toBe('/docs/x/');
    expect(docsPathOf('/guides/api/', '')).toBeNull();
    expect(docsPathOf('/docs/x/', '/tributary')).toBeNull();
    expect(docsPathOf('/docsx/', '')).toBeNull();
  });

  test.each([
    ['/docs/guides/api/', '/docs/api/'],
    ['/docs/a/b/sap', '/docs/sap/'],
    ['/docs/old/raspberry-pi/', '/docs/raspberry-pi/'],
    ['/docs/no-such-page/', '/docs/'],
    ['/docs/api/no-such-page/', '/docs/'],
    ['/docs/%E2%9C%93/', '/docs/'],
    ['/docs/%E0%A4%A/', '/docs/'],
  ])('%s shows %s (the last segment chooses)', (path, target) => {
    expect(docsFallbackTarget(path, segments)).toBe(target);
  });

  test('the overview segment itself is not a page to jump to', () => {
    expect(segments).toContain('');
    expect(docsFallbackTarget('/docs//', segments)).toBe('/docs/');
  });
});
