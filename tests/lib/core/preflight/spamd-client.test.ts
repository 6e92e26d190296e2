import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWithSpamd, parseSpamdAnswer, parseSpamdUrl } from '@/lib/core/preflight/spamd-client';
import { GTUBE, startSpamd, type SpamdHandle } from '../../../../e2e/support/spamd';

const message = (body: string) =>
  Buffer.from(
    [
      'From: Ada <ada@news.example.com>',
      'To: sam@example.org',
      'Subject: Our autumn letter',
      'Date: Fri, 27 Nov 2026 09:00:00 +0000',
      'Message-ID: <preflight.1@news.example.com>',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n'),
  );

describe('SPAMD_URL', () => {
  it.each([
    ['spamd://127.0.0.1:7830', { host: '127.0.0.1', port: 7830 }],
    ['tcp://spam.internal', { host: 'spam.internal', port: 783 }],
    ['spamd://[::1]:783', { host: '::1', port: 783 }],
  ])('%s is accepted', (value, expected) => expect(parseSpamdUrl(value)).toEqual(expected));

  it.each(['http://127.0.0.1:783', 'spamd://', 'spamd://host:783/path', 'spamd://user:pw@host', '127.0.0.1:783'])(
    '%s is refused',
    (value) => expect(parseSpamdUrl(value)).toBeNull(),
  );
});

describe('spamd answers', () => {
  it('an error status is an error, not a score', () => {
    expect(() => parseSpamdAnswer('SPAMD/1.1 76 Bad header line\r\n\r\n')).toThrow(/refused the message/);
    expect(() => parseSpamdAnswer('HTTP/1.1 200 OK\r\n\r\n')).toThrow(/no SPAMD status line/);
    expect(() => parseSpamdAnswer('SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\n\r\n')).toThrow(/no Spam header/);
  });
});

// Against the real spamd of Debian's spamassassin package (the check's only source of truth).
describe('spamd', () => {
  let spamd: SpamdHandle | null;
  beforeAll(async () => {
    spamd = await startSpamd();
  }, 120_000);
  afterAll(async () => spamd?.stop());

  it('scores GTUBE as spam and lists the rule with its score', async (context) => {
    if (!spamd) return context.skip();
    const report = await checkWithSpamd(spamd, message(`Hello\r\n${GTUBE}`), 20_000);
    expect(report.isSpam).toBe(true);
    expect(report.score).toBeGreaterThanOrEqual(1000);
    expect(report.threshold).toBe(5);
    expect(report.rules).toContainEqual(expect.objectContaining({ name: 'GTUBE', score: 1000 }));
  });

  it('scores a plain letter low', async (context) => {
    if (!spamd) return context.skip();
    const report = await checkWithSpamd(spamd, message('Hi Sam,\r\n\r\nThe garden club meets on Tuesday.\r\n'), 20_000);
    expect(report.isSpam).toBe(false);
    expect(report.score).toBeLessThan(3);
  });

  it('a port where nothing listens is an error naming it', async () => {
    await expect(checkWithSpamd({ host: '127.0.0.1', port: 9 }, message('x'), 2000)).rejects.toThrow(
      /127\.0\.0\.1:9: ECONNREFUSED/,
    );
  });
});
