import type { EventType } from './internal/record-event';

type MessageFacts = {
  id: string;
  accountId: string;
  sender: string;
  recipient: string;
  subject: string;
  messageIdHeader: string;
};

/**
 * The stored payload of a message event: the `data` of its webhook (contract section 6.3, the same
 * shape for every message event, `event` naming the subscription flag, `on_delivered` for
 * `message.delivered`) plus what the dashboard's timeline also shows (`response`: the SMTP reply).
 * lib/core/webhooks/internal/build-webhook-payload.ts sends exactly the documented fields.
 */
export function messageEventPayload(type: EventType, message: MessageFacts, extra: Record<string, unknown> = {}) {
  return {
    account_id: message.accountId,
    event: `on_${type.slice('message.'.length)}`,
    from: message.sender,
    recipient: message.recipient,
    subject: message.subject,
    message_id_header: message.messageIdHeader,
    id: message.id,
    is_bot: false,
    ...extra,
  };
}
