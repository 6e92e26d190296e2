import type { messages } from '@/lib/db/schema';
import { displayStatus } from '../statuses';

type MessageRow = typeof messages.$inferSelect;

export function presentMessageSummary(row: MessageRow) {
  return {
    object: 'message' as const,
    id: row.id,
    message_id: row.messageIdHeader,
    account_id: row.accountId,
    domain_id: row.domainId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    retain_until: row.retainUntil.toISOString(),
    direction: row.direction as 'inbound' | 'outbound',
    is_bounce_notification: false,
    // Always present, null unless the message bounced: the official SDK's Message requires the field.
    bounce_classification: row.bounceClassification ?? null,
    delivery_attempts: row.deliveryAttempts,
    subject: row.subject,
    tags: row.tags,
    sender: row.sender,
    recipient: row.recipient,
    status: displayStatus(row.status, row.isSandbox),
    num_attempts: row.attempts,
    click_count: row.clickCount,
    open_count: row.openCount,
    reference_message_id: null,
    is_sandbox: row.isSandbox,
    campaign_id: row.campaignId,
    // The contract calls a scheduled message "Received"; this says when it is due to go.
    scheduled_for: row.status === 'scheduled' ? (row.nextAttemptAt ?? row.firstAttemptAt).toISOString() : null,
  };
}

export type MessageSummaryObject = ReturnType<typeof presentMessageSummary>;
