import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { addTracking } from '@/lib/core/tracking/tracking-links';
import { trackRawMessage, type TrackHtml } from '@/lib/mail/track-raw-message';

const track: TrackHtml = (html) =>
  addTracking(html, {
    isClickTracked: true,
    isOpenTracked: true,
    clickUrl: (position) => `https://t.example/c/${position}`,
    openUrl: 'https://t.example/o',
  });

const compose = (mail: ConstructorParameters<typeof MailComposer>[0]) => new MailComposer(mail).compile().build();

const pdf = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 7) % 256));
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001',
  'hex',
);

describe('trackRawMessage', () => {
  it('rewrites the links of the HTML part and adds the pixel, leaving text, attachments, inline images and headers as written', async () => {
    const raw = await compose({
      from: 'shop@own.example',
      to: 'ann@rcpt.example',
      subject: 'Grüße',
      text: 'Read https://example.com/a',
      html: '<p>Grüße: <a href="https://example.com/a?x=1&amp;y=2">read</a> <a data-as-no-track href="https://example.com/keep">keep</a> <img src="cid:logo@own"></p>',
      attachments: [
        { filename: 'report.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: 'logo.png', content: png, cid: 'logo@own' },
      ],
    });
    const { raw: tracked, links } = await trackRawMessage(raw, track);
    expect(links).toEqual(['https://example.com/a?x=1&y=2']);

    const [before, after] = await Promise.all([simpleParser(raw), simpleParser(tracked)]);
    expect(after.html).toContain('<a href="https://t.example/c/0">read</a>');
    expect(after.html).toContain('href="https://example.com/keep"');
    expect(after.html).toContain('<img src="https://t.example/o" width="1" height="1"');
    expect(after.html).toContain('Grüße');
    expect(after.text).toBe(before.text);
    expect(after.subject).toBe('Grüße');
    expect(
      after.attachments.map((attachment) => [attachment.filename, attachment.contentType, attachment.cid ?? null]),
    ).toEqual(
      before.attachments.map((attachment) => [attachment.filename, attachment.contentType, attachment.cid ?? null]),
    );
    for (const [index, attachment] of after.attachments.entries())
      expect(attachment.content.equals(before.attachments[index].content)).toBe(true);
    // The message's header block is byte for byte the one submitted.
    const head = (message: Buffer) => message.subarray(0, message.indexOf('\r\n\r\n'));
    expect(head(tracked).equals(head(raw))).toBe(true);
  });

  it('keeps the charset and the base64 encoding of an ISO-8859-1 HTML part, and leaves an attached message alone', async () => {
    const inner = await compose({
      from: 'x@other.example',
      to: 'y@other.example',
      subject: 'forwarded',
      html: '<a href="https://forwarded.example/">f</a>',
    });
    const latin1 = Buffer.from(
      '<html><body><p>Caf\xe9 <a href="https://example.com/caf\xe9">menu</a></p></body></html>',
      'latin1',
    );
    const raw = Buffer.from(
      [
        'From: shop@own.example',
        'Subject: latin1',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/html; charset=iso-8859-1',
        'Content-Transfer-Encoding: base64',
        '',
        latin1.toString('base64'),
        '--b1',
        'Content-Type: message/rfc822',
        '',
        inner.toString(),
        '--b1--',
        '',
      ].join('\r\n'),
    );
    const { raw: tracked, links } = await trackRawMessage(raw, track);
    expect(links).toEqual(['https://example.com/café']);
    const text = tracked.toString('latin1');
    expect(text).toContain('Content-Type: text/html; charset=iso-8859-1\r\nContent-Transfer-Encoding: base64');
    expect(text).toContain(inner.toString());
    const encoded = /Content-Transfer-Encoding: base64\r\n\r\n([\s\S]*?)\r\n--b1/.exec(text)![1];
    const html = Buffer.from(encoded, 'base64').toString('latin1');
    expect(html).toBe(
      '<html><body><p>Caf\xe9 <a href="https://t.example/c/0">menu</a></p><img src="https://t.example/o" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" /></body></html>',
    );
  });
});
