import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addTracking,
  isBotUserAgent,
  signTrackingToken,
  verifyTrackingToken,
} from '@/lib/core/tracking/tracking-links';

const key = randomBytes(32);
const messageId = '01a20000-0000-7000-8000-000000000001';

describe('tracking tokens', () => {
  it('verify what we signed, and nothing altered', () => {
    expect(verifyTrackingToken(key, signTrackingToken(key, messageId))).toEqual({ messageId });
    const click = signTrackingToken(key, messageId, 3);
    expect(verifyTrackingToken(key, click)).toEqual({ messageId, position: 3 });
    expect(verifyTrackingToken(key, click.replace('.3.', '.4.'))).toBeNull();
    expect(verifyTrackingToken(randomBytes(32), click)).toBeNull();
    expect(verifyTrackingToken(key, 'garbage')).toBeNull();
  });
});

describe('addTracking', () => {
  it('rewrites http(s) anchors in order, skips data-as-no-track and other schemes, appends the pixel', () => {
    const html =
      '<html><body><a href="https://a.example/x?p=1&amp;q=2">A</a><a href=\'http://b.example\'>B</a><a data-as-no-track href="https://c.example">C</a><a href="mailto:x@y.example">M</a></body></html>';
    const result = addTracking(html, {
      isClickTracked: true,
      isOpenTracked: true,
      clickUrl: (n) => `https://t.example/c/${n}`,
      openUrl: 'https://t.example/o',
    });
    expect(result.links).toEqual(['https://a.example/x?p=1&q=2', 'http://b.example']);
    expect(result.html).toContain('<a href="https://t.example/c/0">A</a>');
    expect(result.html).toContain('<a href="https://t.example/c/1">B</a>');
    expect(result.html).toContain('href="https://c.example"');
    expect(result.html).toContain('href="mailto:x@y.example"');
    expect(result.html).toMatch(/<img src="https:\/\/t\.example\/o"[^>]*\/><\/body>/);
  });

  it('leaves HTML alone when nothing is tracked', () => {
    const html = '<a href="https://a.example">A</a>';
    expect(addTracking(html, { isClickTracked: false, isOpenTracked: false, clickUrl: () => '', openUrl: '' })).toEqual(
      { html, links: [] },
    );
  });

  it('flags mail proxies and scanners as bots', () => {
    expect(
      isBotUserAgent('Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'),
    ).toBe(true);
    expect(isBotUserAgent('')).toBe(true);
    expect(isBotUserAgent('Mozilla/5.0 (Macintosh) Thunderbird/128.0')).toBe(false);
  });
});
