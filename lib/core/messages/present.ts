import type { messages } from '@/lib/db/schema';
import { displayStatus } from './statuses';

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
    // Present only for bounces: the public schema types it as a plain string.
    ...(row.bounceClassification ? { bounce_classification: row.bounceClassification } : {}),
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
  };
}

export type MessageSummaryObject = ReturnType<typeof presentMessageSummary>;
