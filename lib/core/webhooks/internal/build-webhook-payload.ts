type StoredEvent = { type: string; createdAt: Date; payload: unknown };

const MESSAGE_FIELDS = ['account_id', 'event', 'from', 'recipient', 'subject', 'message_id_header', 'id'] as const;
const string = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

/**
 * The `data` of a webhook event as ahasend-webhooks.yaml has it, from the stored event payload:
 * exactly the documented fields (internal ones such as the SMTP response stay out), `is_bot` on every
 * message event, `user_agent` and `ip` on opens and clicks, `url` on clicks. The message `id` is the
 * message's UUID, the id GET /messages/{id} takes (AhaSend's own examples show 32 hex digits).
 */
function webhookData(type: string, stored: Record<string, unknown>, at: Date): Record<string, unknown> {
  if (type.startsWith('message.')) {
    const data: Record<string, unknown> = Object.fromEntries(
      MESSAGE_FIELDS.map((field) => [field, string(stored[field])]),
    );
    if (type === 'message.clicked') data.url = string(stored.url);
    if (type === 'message.opened' || type === 'message.clicked') {
      data.user_agent = string(stored.user_agent);
      data.ip = string(stored.ip);
    }
    data.is_bot = stored.is_bot === true;
    return data;
  }
  if (type === 'suppression.created') {
    return {
      account_id: string(stored.account_id),
      recipient: string(stored.recipient),
      created_at: string(stored.created_at) || at.toISOString(),
      expires_at: string(stored.expires_at),
      reason: string(stored.reason),
      sending_domain: string(stored.sending_domain),
    };
  }
  if (type === 'domain.dns_error') {
    return {
      domain: string(stored.domain),
      account_id: string(stored.account_id),
      spf_valid: stored.spf_valid === true,
      dkim_valid: stored.dkim_valid === true,
      dmarc_valid: stored.dmarc_valid === true,
      dns_last_checked_at: string(stored.dns_last_checked_at) || at.toISOString(),
    };
  }
  return stored;
}

/** The body of a webhook request: `{type, timestamp, webhook_id, data}`, the same bytes on every retry. */
export function buildWebhookPayload(event: StoredEvent, webhookId: string) {
  const stored = event.payload && typeof event.payload === 'object' ? (event.payload as Record<string, unknown>) : {};
  return {
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    webhook_id: webhookId,
    data: webhookData(event.type, stored, event.createdAt),
  };
}
