import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@/lib/core/webhooks/create-webhook';
import { signWebhook, webhookHeaders } from '@/lib/webhooks/sign-webhook';

/** Our signatures checked by an independent implementation (the `standardwebhooks` package). */
describe('webhook signing', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({
    type: 'message.delivered',
    timestamp: '2026-11-22T10:00:00.000Z',
    webhook_id: '01a20000-0000-7000-8000-000000000001',
    data: { id: 'x' },
  });
  const id = '01a20000-0000-7000-8000-0000000000ab';

  it("secrets have the AhaSend tools' format: aha-whsec- and 64 alphanumerics", () => {
    expect(secret).toMatch(/^aha-whsec-[A-Za-z0-9]{64}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('verifies with standardwebhooks in raw mode (the HMAC key is the literal bytes of the whole secret)', () => {
    const headers = webhookHeaders(secret, id, body, new Date());
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret, { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('verifies with standardwebhooks given the base64 of those bytes, the stock whsec_ form', () => {
    const headers = webhookHeaders(secret, id, body, new Date());
    expect(new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`).verify(body, headers)).toEqual(
      JSON.parse(body),
    );
  });

  it('is not the stock scheme: decoding the secret as base64 gives another key, and the check fails', () => {
    const headers = webhookHeaders(secret, id, body, new Date());
    expect(() => new Webhook(secret.replace(/-/g, '')).verify(body, headers)).toThrow();
  });

  it('a changed body, id or timestamp does not verify; the signature covers id.timestamp.body', () => {
    const at = new Date();
    const headers = webhookHeaders(secret, id, body, at);
    const wh = new Webhook(secret, { format: 'raw' });
    expect(() => wh.verify(body.replace('x', 'y'), headers)).toThrow();
    expect(() => wh.verify(body, { ...headers, 'webhook-id': `${id}0` })).toThrow();
    expect(() =>
      wh.verify(body, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) }),
    ).toThrow();
    expect(signWebhook(secret, id, Math.floor(at.getTime() / 1000), body)).toBe(headers['webhook-signature']);
  });

  it('the timestamp is the send time in seconds; a retry signs again with its own time and the same id', () => {
    const first = webhookHeaders(secret, id, body, new Date('2026-11-22T10:00:00.900Z'));
    const retry = webhookHeaders(secret, id, body, new Date('2026-11-22T10:00:05Z'));
    expect(first['webhook-timestamp']).toBe(String(Date.parse('2026-11-22T10:00:00Z') / 1000));
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
  });
});
