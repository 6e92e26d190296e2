import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSharedMime, personalizeSharedHead } from '@/lib/core/messages/build-mime';
import type { MessageSource } from '@/lib/mail/build-signed-message';
import { createMailBuilder } from '@/lib/mail/mail-builder';
import { dkimBodyHash, signDkim } from '@/lib/mail/sign-dkim';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkim = {
  domain: 'shop.example',
  selector: 'ms1',
  key: { id: 'test-key', pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
};
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
      attachments: [
        {
          fileName: 'receipt.txt',
          contentType: 'text/plain',
          contentId: null,
          isInline: false,
          base64: Buffer.from(`receipt ${index}`).toString('base64'),
        },
      ],
    },
    parts: null,
    message: {
      messageIdHeader: `<${index}@shop.example>`,
      recipient: `r${index}@example.org`,
      recipientName: 'Ada "A" Lovelace',
      date: new Date('2026-11-23T10:00:00Z'),
      extraHeaders: [['List-Unsubscribe', '<https://mail.example/u/t>']],
    },
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
      expect(verification.results.map((result: { status: { result: string } }) => result.status.result)).toEqual([
        'pass',
      ]);
      expect(raw.toString()).toMatch(/^DKIM-Signature: .*h=[^;]*list-unsubscribe/ims);
      const parsed = await simpleParser(raw);
      expect([parsed.subject, parsed.messageId, parsed.to && 'text' in parsed.to ? parsed.to.text : null]).toEqual([
        'Order 1 — ready',
        '<1@shop.example>',
        '"Ada \\"A\\" Lovelace" <r1@example.org>',
      ]);
      expect(parsed.text).toContain('A line with only a dot above.');
      expect(parsed.headers.get('x-order')).toBe('1');
      expect(parsed.attachments.map((attachment) => attachment.content.toString())).toEqual(['receipt 1']);
    }
  });

  it('signs bytes already made as they are, and keeps each of many parallel messages apart', async () => {
    const raws = Array.from({ length: 60 }, (_, index) =>
      Buffer.from(`From: news@shop.example\r\nTo: r${index}@example.org\r\nSubject: ${index}\r\n\r\nBody ${index}\r\n`),
    );
    const signed = await Promise.all(raws.map((raw) => threaded.build({ raw }, dkim)));
    for (const [index, result] of signed.entries()) {
      const text = bytes(result).toString();
      expect(text.endsWith(raws[index].toString())).toBe(true);
      expect(text).toMatch(/^DKIM-Signature: /);
    }
    const verification = await dkimVerify(bytes(signed[59]), { resolver });
    expect(verification.results[0].status.result).toBe('pass');
  });

  it('signs a shared encoding by its headers alone, to the same bytes as signing the whole message', async () => {
    const { content } = (composed(0) as Extract<MessageSource, { compose: unknown }>).compose;
    // Trailing spaces and blank lines at the end: the body hash is the relaxed one, computed once.
    const shared = (await buildSharedMime(
      { ...content, text: 'Line one   \nline\ttwo\n\n\n' },
      new Date('2026-11-23T10:00:00Z'),
    ))!;
    expect(shared).not.toBeNull();
    const bodyHash = await dkimBodyHash(shared.body);
    for (const builder of [inline, threaded]) {
      const messages = [
        { messageIdHeader: '<a@shop.example>', recipient: 'ada@example.org', recipientName: 'Ada Lovelace' },
        { messageIdHeader: '<b@shop.example>', recipient: 'bo@example.org', recipientName: 'Bö Ünïcode' },
      ];
      for (const message of messages) {
        const head = personalizeSharedHead(shared, message);
        const raw = bytes(await builder.build({ personalized: { head, body: shared.body, bodyHash } }, dkim));
        const unsigned = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), shared.body]);
        expect(raw.equals(await signDkim(unsigned, dkim))).toBe(true);
        const verification = await dkimVerify(raw, { resolver });
        expect(verification.results.map((result: { status: { result: string } }) => result.status.result)).toEqual([
          'pass',
        ]);
        const parsed = await simpleParser(raw);
        expect([parsed.messageId, parsed.to && 'value' in parsed.to ? parsed.to.value[0] : null]).toMatchObject([
          message.messageIdHeader,
          { name: message.recipientName, address: message.recipient },
        ]);
      }
    }
  });

  it('a hostile recipient name cannot add a header to a personalised message, and its signature verifies', async () => {
    const shared = (await buildSharedMime(
      (composed(0) as Extract<MessageSource, { compose: unknown }>).compose.content,
      new Date('2026-11-23T10:00:00Z'),
    ))!;
    const bodyHash = await dkimBodyHash(shared.body);
    for (const recipientName of [
      'Eve\r\nBcc: victim@example.org',
      'Eve\nDKIM-Signature: v=1; d=evil.example',
      'a "quoted" \\ name',
    ]) {
      const head = personalizeSharedHead(shared, {
        messageIdHeader: '<h@shop.example>',
        recipient: 'eve@example.org',
        recipientName,
      });
      const raw = bytes(await threaded.build({ personalized: { head, body: shared.body, bodyHash } }, dkim));
      const verification = await dkimVerify(raw, { resolver });
      expect(verification.results.map((result: { status: { result: string } }) => result.status.result)).toEqual([
        'pass',
      ]);
      const parsed = await simpleParser(raw);
      expect(parsed.headers.has('bcc')).toBe(false);
      expect(raw.toString().match(/^DKIM-Signature:/gm)).toHaveLength(1);
      expect(parsed.to && 'value' in parsed.to ? parsed.to.value.map((to) => to.address) : null).toEqual([
        'eve@example.org',
      ]);
    }
  });

  it('a signature over the headers alone does not verify once the shared body is changed', async () => {
    const shared = (await buildSharedMime(
      (composed(0) as Extract<MessageSource, { compose: unknown }>).compose.content,
      new Date('2026-11-23T10:00:00Z'),
    ))!;
    const head = personalizeSharedHead(shared, {
      messageIdHeader: '<c@shop.example>',
      recipient: 'c@example.org',
      recipientName: null,
    });
    const raw = bytes(
      await threaded.build(
        { personalized: { head, body: shared.body, bodyHash: await dkimBodyHash(shared.body) } },
        dkim,
      ),
    );
    const tampered = Buffer.from(raw.toString().replace('Your order is ready.', 'Your order is lost.'));
    const [result] = (await dkimVerify(tampered, { resolver })).results;
    expect(result.status.result).not.toBe('pass');
    expect(result.status.comment).toMatch(/body hash/);
  });

  it('refuses work once closed', async () => {
    const builder = createMailBuilder({ threads: 1 });
    await builder.close();
    await expect(builder.build(composed(2), dkim)).rejects.toThrow();
  });
});
