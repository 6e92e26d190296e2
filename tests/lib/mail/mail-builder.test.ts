import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import type { MessageSource } from '@/lib/mail/build-signed-message';
import { createMailBuilder } from '@/lib/mail/mail-builder';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkim = { domain: 'shop.example', selector: 'ms1', key: { id: 'test-key', pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() } };
const publicRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'ms1._domainkey.shop.example') return [[publicRecord]];
  throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
};

const composed = (index: number): MessageSource => ({
  compose: {
    content: {
      from: { email: 'news@shop.example', name: 'Shöp' },
      subject: `Order ${index} — ready`,
      text: 'Your order is ready.\n.\nA line with only a dot above.',
      html: '<p>Your order is <b>ready</b>.</p>',
      amp: null,
      replyTo: null,
      headers: [['X-Order', String(index)]],
      attachments: [{ fileName: 'receipt.txt', contentType: 'text/plain', contentId: null, isInline: false, base64: Buffer.from(`receipt ${index}`).toString('base64') }],
    },
    parts: null,
    message: { messageIdHeader: `<${index}@shop.example>`, recipient: `r${index}@example.org`, recipientName: 'Ada "A" Lovelace', date: new Date('2026-11-23T10:00:00Z'), extraHeaders: [['List-Unsubscribe', '<https://mail.example/u/t>']] },
  },
});

const inline = createMailBuilder({ threads: 0 });
const threaded = createMailBuilder({ threads: 2 });
afterAll(() => threaded.close());

const bytes = (signed: Awaited<ReturnType<typeof inline.build>>) => {
  if ('failure' in signed) throw new Error(signed.failure);
  return Buffer.from(signed.raw);
};

describe('composing and signing mail', () => {
  it('composes and signs the same message on a mail thread as on the event loop, and the signature verifies', async () => {
    for (const builder of [inline, threaded]) {
      const raw = bytes(await builder.build(composed(1), dkim));
      const verification = await dkimVerify(raw, { resolver });
      expect(verification.results.map((result: { status: { result: string } }) => result.status.result)).toEqual(['pass']);
      expect(raw.toString()).toMatch(/^DKIM-Signature: .*h=[^;]*list-unsubscribe/ims);
      const parsed = await simpleParser(raw);
      expect([parsed.subject, parsed.messageId, parsed.to && 'text' in parsed.to ? parsed.to.text : null]).toEqual(['Order 1 — ready', '<1@shop.example>', '"Ada \\"A\\" Lovelace" <r1@example.org>']);
      expect(parsed.text).toContain('A line with only a dot above.');
      expect(parsed.headers.get('x-order')).toBe('1');
      expect(parsed.attachments.map((attachment) => attachment.content.toString())).toEqual(['receipt 1']);
    }
  });

  it('signs bytes already made as they are, and keeps each of many parallel messages apart', async () => {
    const raws = Array.from({ length: 60 }, (_, index) => Buffer.from(`From: news@shop.example\r\nTo: r${index}@example.org\r\nSubject: ${index}\r\n\r\nBody ${index}\r\n`));
    const signed = await Promise.all(raws.map((raw) => threaded.build({ raw }, dkim)));
    for (const [index, result] of signed.entries()) {
      const text = bytes(result).toString();
      expect(text.endsWith(raws[index].toString())).toBe(true);
      expect(text).toMatch(/^DKIM-Signature: /);
    }
    const verification = await dkimVerify(bytes(signed[59]), { resolver });
    expect(verification.results[0].status.result).toBe('pass');
  });

  it('refuses work once closed', async () => {
    const builder = createMailBuilder({ threads: 1 });
    await builder.close();
    await expect(builder.build(composed(2), dkim)).rejects.toThrow();
  });
});
