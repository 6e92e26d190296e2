import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing as AhaSend does it: `v1,` and the base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the UTF-8 bytes of the whole secret string
 * (prefix included; not base64-decoded as stock `whsec_` secrets are).
 */
export function signWebhook(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: the id stays the same on every retry, the timestamp is the send time. */
export function webhookHeaders(secret: string, webhookId: string, body: string, sentAt: Date): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Mailstead-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, webhookId, timestamp, body),
  };
}
