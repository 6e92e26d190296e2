import { newId } from '@/lib/shared/ids';
import type { WebhookEventType } from '../fan-out';

/**
 * A stored-event payload for "trigger": what a real event of that type would carry, with made-up
 * message facts (addresses at example.com, the subject saying it is a test) and the account's domain.
 */
export function samplePayload(
  type: WebhookEventType,
  accountId: string,
  domain: string,
  at: Date,
): Record<string, unknown> {
  const messageId = newId();
  const message = {
    account_id: accountId,
    event: `on_${type.slice(type.indexOf('.') + 1)}`,
    from: `sender@${domain}`,
    recipient: 'recipient@example.com',
    subject: `Test ${type} event from Mailstead`,
    message_id_header: `<${messageId}@${domain}>`,
    id: messageId,
    is_bot: false,
  };
  const visitor = {
    user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko)',
    ip: '192.0.2.1',
  };
  switch (type) {
    case 'message.opened':
      return { ...message, ...visitor };
    case 'message.clicked':
      return { ...message, ...visitor, url: 'https://example.com/landing-page' };
    case 'suppression.created':
      return {
        account_id: accountId,
        recipient: 'recipient@example.com',
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + 30 * 24 * 3600 * 1000).toISOString(),
        reason: 'Test suppression from Mailstead',
        sending_domain: domain,
      };
    case 'domain.dns_error':
      return {
        domain,
        account_id: accountId,
        spf_valid: false,
        dkim_valid: true,
        dmarc_valid: true,
        dns_last_checked_at: at.toISOString(),
      };
    default:
      return message;
  }
}
